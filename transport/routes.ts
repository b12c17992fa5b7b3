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
 * itself about a path (its table against its slash rule), the other reading, tried once when the first is not there
 * (address.ts).
 */
export interface Route<T = unknown> {
	method: IHttpRequestMethods;
	path: string;
	parse: (data: unknown) => T;
	alternatePath?: string;
}

export const ROUTES = {
	// The login's answer is read by auth.ts (its token may sit outside JSend's data): only its path is used.
	login: {
		method: 'POST',
		path: '/api/login_check',
		alternatePath: '/api/login_check/',
		parse: asRecord,
	},

	contactCreate: { method: 'POST', path: '/api/contacts/', parse: asRecord },
	contactList: { method: 'GET', path: '/api/contacts/', parse: readListPage },

	whatsappMessageSend: { method: 'POST', path: '/api/whatsapp/', parse: asRecord },

	templateCreate: { method: 'POST', path: '/api/v2/whatsapp/templates', parse: asTemplate },
	templateList: { method: 'GET', path: '/api/v2/whatsapp/templates', parse: readListPage },
	templateGet: { method: 'GET', path: '/api/v2/whatsapp/templates/{id}', parse: asTemplate },
	templateSubmit: {
		method: 'POST',
		path: '/api/v2/whatsapp/templates/{id}/submit',
		parse: asTemplate,
	},
	templateSend: { method: 'POST', path: '/api/v2/whatsapp/templates/{id}/send', parse: asRecord },
	templateDelete: { method: 'DELETE', path: '/api/v2/whatsapp/templates/{id}', parse: asTemplate },

	mediaUpload: { method: 'POST', path: '/api/v2/whatsapp/media', parse: asMediaAnswer },
	mediaDelete: { method: 'DELETE', path: '/api/v2/whatsapp/media/{id}', parse: asMediaAnswer },

	orderEvent: { method: 'POST', path: '/api/v1/order/', parse: asOptionalRecord },
	orderHistory: {
		method: 'GET',
		path: '/api/v1/order/history/',
		alternatePath: '/api/v1/order/history',
		parse: readListPage,
	},
	cartEvent: { method: 'POST', path: '/api/v1/cart/', parse: asOptionalRecord },
	automationInstanceCreate: {
		method: 'POST',
		path: '/api/v1/automations/instances/',
		parse: asRecord,
	},

	productList: { method: 'GET', path: '/api/v1/products/', parse: readListPage },
	productCreate: { method: 'POST', path: '/api/v1/products/', parse: asRecord },
	productGet: { method: 'GET', path: '/api/v1/products/{id}/', parse: asRecord },
	productUpdate: { method: 'PUT', path: '/api/v1/products/{id}/', parse: asRecord },
	productDelete: { method: 'DELETE', path: '/api/v1/products/{id}/', parse: asRecord },
} satisfies Record<string, Route>;

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
