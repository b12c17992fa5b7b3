// @ts-check
'use strict';
/**
 * Template review (T1/T3): a submitted (PENDING) template is reviewed reviewDelayMs later: APPROVED, or
 * REJECTED with a reason when a review rule matches its id or name, or by default when its name starts with
 * "reject_". Tests can also finish a review at once.
 */
const { isoNow } = require('./context');

const DEFAULT_REJECT_REASON = 'Template content violates the messaging policy.';

/** @typedef {{ reject?: string | null }} ReviewRule */

class Reviews {
	/**
	 * @param {import('./store').Store} store
	 * @param {import('./context').SandboxConfig} config
	 */
	constructor(store, config) {
		this.store = store;
		this.config = config;
		/** @type {Map<string, ReviewRule>} key: template name, or '#<id>' */ this.rules = new Map();
		/** @type {Map<number, NodeJS.Timeout>} */ this.timers = new Map();
	}

	/**
	 * Sets the outcome of a future (or running) review. A number is a template id; a string is a template name
	 * (or, when no template has that name, an id written as a string).
	 * `{reject: 'reason'}` rejects with that reason; `{}` (or reject null) approves.
	 * @param {string | number} nameOrId
	 * @param {ReviewRule} [rule]
	 */
	setRule(nameOrId, rule = {}) {
		this.rules.set(typeof nameOrId === 'number' ? `#${nameOrId}` : nameOrId, { reject: rule.reject ?? null });
	}

	/** @param {import('./store').Template} tpl */
	decide(tpl) {
		const rule = this.rules.get(`#${tpl.id}`) ?? this.rules.get(tpl.name) ?? this.rules.get(String(tpl.id));
		if (rule) return rule.reject ? { outcome: 'REJECTED', reason: rule.reject } : { outcome: 'APPROVED', reason: null };
		if (tpl.name.startsWith('reject_')) return { outcome: 'REJECTED', reason: DEFAULT_REJECT_REASON };
		return { outcome: 'APPROVED', reason: null };
	}

	/**
	 * Starts the review clock of a PENDING template (no timer when reviewDelayMs is null or not finite).
	 * @param {import('./store').Template} tpl
	 */
	schedule(tpl) {
		const delay = this.config.reviewDelayMs;
		if (delay === null || !Number.isFinite(delay)) return;
		this.cancel(tpl.id);
		const timer = setTimeout(() => {
			this.timers.delete(tpl.id);
			const live = this.store.templates.get(tpl.id);
			if (live && live.state === 'PENDING') {
				const { outcome, reason } = this.decide(live);
				this.finish(live, /** @type {'APPROVED' | 'REJECTED'} */ (outcome), reason);
			}
		}, Math.max(0, delay));
		timer.unref();
		this.timers.set(tpl.id, timer);
	}

	/**
	 * Ends a review now (from DRAFT or PENDING).
	 * @param {import('./store').Template} tpl
	 * @param {'APPROVED' | 'REJECTED'} outcome
	 * @param {string | null} [reason]
	 */
	finish(tpl, outcome, reason = null) {
		this.cancel(tpl.id);
		const now = isoNow();
		tpl.state = outcome;
		if (outcome === 'REJECTED') tpl.reason = reason || DEFAULT_REJECT_REASON;
		else delete tpl.reason;
		tpl.reviewed_at = now;
		tpl.updated_at = now;
		return tpl;
	}

	/** @param {number} id */
	cancel(id) {
		const t = this.timers.get(id);
		if (t) clearTimeout(t);
		this.timers.delete(id);
	}

	reset() {
		for (const t of this.timers.values()) clearTimeout(t);
		this.timers.clear();
		this.rules.clear();
	}
}

module.exports = { Reviews, DEFAULT_REJECT_REASON };
