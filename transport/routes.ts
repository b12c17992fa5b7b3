import type { IHttpRequestMethods } from 'n8n-workflow';

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
 */
export interface Route {
	method: IHttpRequestMethods;
	path: string;
	retrySafe: boolean;
	/** The route needs the plugin secret-key headers (rule A5). */
	plugin?: boolean;
	alternatePath?: string;
}

/** Idempotent methods: sending them twice has the effect of sending them once. The one retry-safety rule. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export const route = (method: IHttpRequestMethods, path: string, extra: Partial<Route> = {}): Route => ({
	method,
	path,
	retrySafe: IDEMPOTENT_METHODS.has(method),
	...extra,
});

/** The form a path has under the other reading of the trailing-slash rule. */
const otherSlashForm = (path: string) => (path.endsWith('/') ? path.slice(0, -1) : `${path}/`);

export const ROUTES = {
	login: route('POST', '/api/login_check', { retrySafe: true, alternatePath: otherSlashForm('/api/login_check') }),

	contactCreate: route('POST', '/api/contacts/'),
	contactList: route('GET', '/api/contacts/'),

	whatsappMessageSend: route('POST', '/api/whatsapp/'),

	templateCreate: route('POST', '/api/v2/whatsapp/templates'),
	templateList: route('GET', '/api/v2/whatsapp/templates'),
	templateGet: route('GET', '/api/v2/whatsapp/templates/{id}'),
	templateSubmit: route('POST', '/api/v2/whatsapp/templates/{id}/submit'),
	templateSend: route('POST', '/api/v2/whatsapp/templates/{id}/send'),
	templateDelete: route('DELETE', '/api/v2/whatsapp/templates/{id}'),

	mediaUpload: route('POST', '/api/v2/whatsapp/media'),
	mediaDelete: route('DELETE', '/api/v2/whatsapp/media/{id}'),

	orderEvent: route('POST', '/api/v1/order/'),
	orderHistory: route('GET', '/api/v1/order/history/', { alternatePath: otherSlashForm('/api/v1/order/history/') }),
	cartEvent: route('POST', '/api/v1/cart/'),
	automationInstanceCreate: route('POST', '/api/v1/automations/instances/'),

	productList: route('GET', '/api/v1/products/', { plugin: true }),
	productCreate: route('POST', '/api/v1/products/', { plugin: true }),
	productGet: route('GET', '/api/v1/products/{id}/', { plugin: true }),
	productUpdate: route('PUT', '/api/v1/products/{id}/', { plugin: true }),
	productDelete: route('DELETE', '/api/v1/products/{id}/', { plugin: true }),
} satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** Fills `{id}` placeholders; each value is URI-encoded so an id can never change the path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '') {
			throw new Error(`Missing path parameter "${name}" for ${path}`);
		}
		return encodeURIComponent(String(value));
	});
}

/** Which reading of a contradicted path each service serves, learned once per process (see `alternatePath`). */
const learnedPaths = new Map<string, string>();

const pathKey = (baseUrl: string, route: Route) => `${baseUrl} ${route.method} ${route.path}`;

export function servedPath(baseUrl: string, route: Route): string {
	return learnedPaths.get(pathKey(baseUrl, route)) ?? route.path;
}

export function rememberServedPath(baseUrl: string, route: Route, path: string): void {
	if (path === route.path) learnedPaths.delete(pathKey(baseUrl, route));
	else learnedPaths.set(pathKey(baseUrl, route), path);
}

/** The other reading of a route's path, if the document leaves one open. */
export function otherReading(route: Route, path: string): string | undefined {
	if (!route.alternatePath) return undefined;
	return path === route.path ? route.alternatePath : route.path;
}
