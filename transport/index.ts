export { apiRequest, type CustomRoute, type RequestSpec } from './request';
export { CREDENTIAL_TYPE, normalizeBaseUrl, readCredentials } from './auth';
export {
	iteratePages,
	listRecords,
	pageQuery,
	PageReader,
	readListPage,
	PAGE_SIZE,
	RETURN_ALL_PAGE_SIZE,
	type ListOptions,
	type ListPage,
	type PageRead,
} from './pagination';
export { ROUTES, type ListRouteName, type RouteAnswer, type RouteName } from './routes';
export {
	asMediaAnswer,
	asOptionalRecord,
	asRecord,
	asRecords,
	asTemplate,
	type MediaAnswer,
	type TemplateRecord,
} from './parsers';
export { errorContext, setErrorContext, type ServiceErrorContext } from './errors';
export { DEFAULT_RETRY, type RetrySettings } from './retryPolicy';
export { endSession, getSession, type ApiContext } from './session';
export { pause } from './pause';
export { runInLanes, MAX_CONCURRENCY, type LaneResult } from './lanes';
export { readConcurrency, DEFAULT_CONCURRENCY } from './retrySettings';
