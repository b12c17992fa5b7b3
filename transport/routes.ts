import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	asMediaAnswer,
	asOptionalRecord,
	asRecord,
	asTemplate,
	readListPage,
	type ListPage,
} from './answers';

/**
 * Every path of the service, in one table (rule E6: v1 and unversioned routes end with a slash, v2 WhatsApp routes do
 * not). Paths the API document does not show are assumptions, listed in docs/api-assumptions.md.
 *
 * `parse` reads the JSend `data` into what callers use (answers.ts). `alternatePath`: where the document contradicts
 * itself about a path (its table against its slash rule), the other spelling, tried once when the first is not there
 * (address.ts).
 */
export interface Route<T = unknown> {
	method: IHttpRequestMethods;
	path: string;
	parse: (data: unknown) => T;
	alternatePath?: string;
	/** A list's field that tells its records apart (default `id`). */
	recordKey?: string;
	/** A list whose new records come first: a page of repeats is read past, as new ones push read ones onto it. */
	newestFirst?: boolean;
}

/** One row of the table: method, path, the parser of its answer and, where there is one, the path's other spelling. */
const route = <T>(
	method: IHttpRequestMethods,
	path: string,
	parse: (data: unknown) => T,
	alternatePath?: string,
): Route<T> => ({ method, path, parse, alternatePath });

export const ROUTES = {
	// The login's answer is read by auth.ts (its token may sit outside JSend's data): only its path is used.
	login: route('POST', '/api/login_check', asRecord, '/api/login_check/'),

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
	// One order is one record, newest first (docs/api-assumptions.md).
	orderHistory: {
		...route('GET', '/api/v1/order/history/', readListPage, '/api/v1/order/history'),
		recordKey: 'order_id',
		newestFirst: true,
	},
	cartEvent: route('POST', '/api/v1/cart/', asOptionalRecord),
	automationInstanceCreate: route('POST', '/api/v1/automations/instances/', asRecord),

	productList: route('GET', '/api/v1/products/', readListPage),
	productCreate: route('POST', '/api/v1/products/', asRecord),
	productGet: route('GET', '/api/v1/products/{id}/', asRecord),
	productUpdate: route('PUT', '/api/v1/products/{id}/', asRecord),
	productDelete: route('DELETE', '/api/v1/products/{id}/', asRecord),
};

export type RouteName = keyof typeof ROUTES;

/** What apiRequest returns for a route: its parser's type. */
export type RouteAnswer<R extends RouteName> = ReturnType<(typeof ROUTES)[R]['parse']>;

/** The routes that answer one page of a list. */
export type ListRouteName = {
	[R in RouteName]: RouteAnswer<R> extends ListPage ? R : never;
}[RouteName];

/**
 * Whether a 5xx, a timeout or a broken connection may be retried: only for idempotent methods, which sent twice have
 * the effect of once (a 429 is always retried: nothing was done).
 */
export const isRetrySafe = (route: Route) =>
	['GET', 'HEAD', 'PUT', 'DELETE'].includes(route.method);
