import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { itemError, readEntries, readText, textValue } from '../../helpers/parameters';
import type { CustomRoute } from '../../../../transport/request';

/** The inputs of Make an API Call that only it has: method, path and query. */

export const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;
export const METHODS_WITH_BODY = ['DELETE', 'PATCH', 'POST', 'PUT'];

/**
 * Only a path under the Base URL is accepted, never a URL of its own: the bearer token (and the plugin key)
 * go with every request, so a call must not be able to reach another host.
 */
export function pathProblem(path: string): string | undefined {
	if (path === '') return 'the path is empty';
	if (/^[a-z][a-z\d+.-]*:/i.test(path)) return 'it is a full URL; give only the path after the Base URL';
	if (!path.startsWith('/')) return 'it must start with /';
	// "//host" is a protocol-relative URL; a backslash is read as a slash by URL parsers.
	if (path.startsWith('//') || path.includes('\\')) return 'it would leave the service (it starts like a URL to another host)';
	if (/\s/.test(path) || hasControlCharacter(path)) return 'it contains spaces or control characters';
	const segments = path.split(/[?#]/)[0].split('/');
	if (segments.some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'it must not contain . or .. segments';
	const resolved = new URL(path, 'https://service.invalid');
	if (resolved.host !== 'service.invalid') return 'it would leave the service';
	return undefined;
}

/** C0 controls (U+0000-U+001F, incl. CR/LF that would split a header) and DEL. */
function hasControlCharacter(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code <= 0x1f || code === 0x7f) return true;
	}
	return false;
}

/** The method may come from an expression, so it is checked like any other input. */
export function readMethod(ctx: IExecuteFunctions, itemIndex: number): CustomRoute['method'] {
	const raw = readText(ctx, 'method', itemIndex, { label: 'method' }) ?? 'GET';
	const method = raw.toUpperCase() as CustomRoute['method'];
	if (!(METHODS as readonly string[]).includes(method)) {
		throw itemError(ctx, itemIndex, `the method "${raw}" is not supported`, `Use one of ${METHODS.join(', ')}.`);
	}
	return method;
}

export function readPath(ctx: IExecuteFunctions, itemIndex: number): string {
	const path = readText(ctx, 'path', itemIndex, { label: 'path' }) ?? '';
	const problem = pathProblem(path);
	if (problem) {
		throw itemError(
			ctx,
			itemIndex,
			`the path "${path}" is refused: ${problem}`,
			"Enter a path relative to the credential's Base URL, e.g. /api/contacts/. To call another service, use the HTTP Request node.",
		);
	}
	// Braces are percent-encoded so the transport never reads them as {placeholders}.
	return path.replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}

/** Query parameters: each name and value is text (a number as its digits); an object or a list fails naming it. */
export function readQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const qs: IDataObject = {};
	for (const pair of readEntries(ctx, 'queryParameters', itemIndex, { label: 'Query Parameters', entry: 'parameter' })) {
		const name = textValue(ctx, pair.name, itemIndex, { label: 'query parameter name' });
		if (name) qs[name] = textValue(ctx, pair.value, itemIndex, { label: `query parameter "${name}"`, keepSpaces: true }) ?? '';
	}
	return Object.keys(qs).length ? qs : undefined;
}
