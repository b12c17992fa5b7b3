'use strict';
/**
 * Judges one job's result against its targets (bench/lib/jobs.js TARGETS): each check is printed pass/fail in the
 * table and kept in the results JSON, so a scaled run can be checked by a script. Nothing here asserts in a test.
 */

/** @returns {Array<{name: string, value: number | null, limit: number, pass: boolean | null}>} */
function judge(job, targets) {
	const wanted = { ...targets.all, ...(targets[job.id] ?? {}) };
	const node = job.summary.node;
	const checks = [];
	const atMost = (name, value, limit) =>
		checks.push({ name, value: value ?? null, limit, pass: value === null || value === undefined ? null : value <= limit });
	for (const [key, limit] of Object.entries(wanted)) {
		if (key.endsWith('Max') && key !== 'beyondMinimumShareMax') atMost(key.replace(/Max$/, ''), job.ratios[key.replace(/Max$/, '')], limit);
	}
	if (wanted.itemsLost !== undefined) atMost('itemsLost', node.itemsLost, wanted.itemsLost);
	if (wanted.duplicates !== undefined) atMost('duplicates', node.duplicates, wanted.duplicates);
	if (wanted.outOfOrder !== undefined) atMost('outOfOrder', node.outOfOrder, wanted.outOfOrder);
	if (wanted.logins !== undefined) atMost('logins', node.logins, wanted.logins);
	if (wanted.earlyRetries !== undefined) atMost('earlyRetries', node.earlyRetries, wanted.earlyRetries);
	if (wanted.beyondMinimumShareMax !== undefined) {
		atMost('beyondMinimumShare', node.beyondMinimum === null ? null : node.beyondMinimum / job.minimumRequests, wanted.beyondMinimumShareMax);
	}
	return checks;
}

/** "node/raw 1.05x <= 1.15 pass" lines for the table. */
function describeChecks(checks) {
	return checks
		.map((c) => {
			const value = c.value === null ? '-' : c.name.startsWith('time') || c.name.startsWith('rss') ? `${c.value.toFixed(2)}x` : String(Math.round(c.value * 1000) / 1000);
			return `${c.name} ${value} <= ${c.limit} ${c.pass === null ? 'n/a' : c.pass ? 'PASS' : 'FAIL'}`;
		})
		.join('; ');
}

module.exports = { judge, describeChecks };
