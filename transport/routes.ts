import type { IHttpRequestMethods } from 'n8n-workflow';

import { asMediaAnswer, asOptionalRecord, asRecord, asTemplate, readListPage, type ListPage } from './envelope';

/**
 * Every path of the service, in one table (rule E6: v1 and unversioned routes end with a slash, v2 WhatsApp
 * routes do not). Paths the API document does not show are assumptions, listed in docs/api-assumptions.md.
 *
 * `retrySafe`: whether a 5xx, a timeout or a connection reset may be retried. A rate-limit answer (429) is always
 * retried, because the service refused the request before doing anything.
 *
 * `alternatePath`: where the document contradicts itself about a path (its table against its trailing-slash rule),
 * the other reading. The transport tries it once when the first one is not there (404, or a redirect to it) and
 * remembers which one the service serves, so the steady state costs no extra request.
 *
 * `parse`: reads the JSend `data` into the type the callers use (envelope.ts); apiRequest returns its result.
 */
export interface Route<T = unknown> {
	method: IHttpRequestMethods;
	path: string;
	retrySafe: boolean;
	/** The route needs the plugin secret-key headers (rule A5). */
	plugin?: boolean;
	alternatePath?: string;
	parse: (data: unknown) => T;
}

/** Idempotent methods: sending them twice has the effect of sending them once. The one retry-safety rule. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export const route = <T>(
	method: IHttpRequestMethods,
	path: string,
	parse: (data: unknown) => T,
	extra: Partial<Omit<Route, 'parse'>> = {},
): Route<T> => ({
	method,
	path,
	retrySafe: IDEMPOTENT_METHODS.has(method),
	parse,
	...extra,
});

/** The form a path has under the other reading of the trailing-slash rule (address.ts tries it). */
const otherSlashForm = (path: string) => (path.endsWith('/') ? path.slice(0, -1) : `${path}/`);

export const ROUTES = {
	// transport/login.ts reads the login's answer (its token may sit outside JSend's data); the route gives the path.
	login: route('POST', '/api/login_check', asRecord, { retrySafe: true, alternatePath: otherSlashForm('/api/login_check') }),

	contactCreate: route('POST', '/api/contacts/', asRecord),
	contactList: route('GET', '/api/contacts/', readListPage),

	whatsappMessageSend: route('POST', '/api/whatsapp/', asRecord),

	templateCreate: route('POST', '/api/v2/whatsapp/templates', asTemplate),
	templateList: route('GET', '/api/v2/whatsapp/templates', readListPage),
	templateGet: route('GET', '/api/v2/whatsapp/templates/{id}', asTemplate),
	templateSubmit: route('POST', '/api/v2/whatsapp/templates/{id}/submit', asTemplate),
	templateSend: route('POST', '/api/v2/whatsapp/templates/{id}/send', asRecord),
	templateDelete: route('DELETE', '/api/v2/whatsapp/templates/{id}', asTemplate),

	mediaUpload: route('POST', '/api/v2/whatsapp/media', asMediaAnswer),
	mediaDelete: route('DELETE', '/api/v2/whatsapp/media/{id}', asMediaAnswer),

	orderEvent: route('POST', '/api/v1/order/', asOptionalRecord),
	orderHistory: route('GET', '/api/v1/order/history/', readListPage, {
		alternatePath: otherSlashForm('/api/v1/order/history/'),
	}),
	cartEvent: route('POST', '/api/v1/cart/', asOptionalRecord),
	automationInstanceCreate: route('POST', '/api/v1/automations/instances/', asRecord),

	productList: route('GET', '/api/v1/products/', readListPage, { plugin: true }),
	productCreate: route('POST', '/api/v1/products/', asRecord, { plugin: true }),
	productGet: route('GET', '/api/v1/products/{id}/', asRecord, { plugin: true }),
	productUpdate: route('PUT', '/api/v1/products/{id}/', asRecord, { plugin: true }),
	productDelete: route('DELETE', '/api/v1/products/{id}/', asRecord, { plugin: true }),
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** What apiRequest returns for a route: its parser's type. */
export type RouteAnswer<R extends RouteName> = ReturnType<(typeof ROUTES)[R]['parse']>;

/** The routes that answer one page of a list: the only ones PageReader, iteratePages and listRecords take. */
export type ListRouteName = { [R in RouteName]: RouteAnswer<R> extends ListPage ? R : never }[RouteName];
