/**
 * Redaction's walks: every text inside a value or an error, replaced in place by a function (redact.ts gives it), for
 * the rare answer or error that holds a secret.
 */

/**
 * Every string inside a value, keys of plain objects included, redacted in place at any depth (a stack, cycles
 * tolerated). Only plain objects and arrays are walked: an HTTP library's sockets and buffers are left alone.
 */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
	if (typeof value === 'string') return redact(value) as T;
	const seen = new WeakSet<object>();
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const container = stack.pop();
		if (!isWalkable(container) || seen.has(container)) continue;
		seen.add(container);
		const record = container as Record<string | number, unknown>;
		for (const key of Object.keys(record)) {
			const entry = record[key];
			if (typeof entry === 'string') {
				const redacted = redact(entry);
				if (redacted !== entry) assign(record, key, redacted);
			} else if (isWalkable(entry)) {
				stack.push(entry);
			}
			const redactedKey = Array.isArray(record) ? key : redact(key);
			if (redactedKey !== key) {
				assign(record, redactedKey, record[key]);
				delete record[key];
			}
		}
	}
	return value;
}

function isWalkable(value: unknown): value is object {
	if (!value || typeof value !== 'object') return false;
	if (Array.isArray(value)) return true;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

function assign(record: Record<string | number, unknown>, key: string, value: unknown): void {
	try {
		record[key] = value;
	} catch {
		// A read-only property keeps its value.
	}
}

/** An error's message, description, stack, context and response body redacted in place, along its cause chain. */
export function redactError<E>(error: E, redact: (text: string) => string): E {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const target = current as Record<string, unknown>;
		for (const key of ['message', 'description', 'stack']) {
			if (typeof target[key] === 'string') assign(target, key, redact(target[key] as string));
		}
		for (const key of ['context', 'errorResponse', 'messages']) {
			if (target[key] !== undefined) target[key] = redactDeep(target[key], redact);
		}
		current = target.cause;
	}
	return error;
}
