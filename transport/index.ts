/** What the nodes and the credential use of the transport. A request's path through it: request.ts. */
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
export {
	DEFAULT_CONCURRENCY,
	DEFAULT_MAX_RECORDS,
	DEFAULT_RETRY,
	MAX_CONCURRENCY,
	runSettings,
	type RetrySettings,
	type RunSettings,
	type RunSettingsInput,
} from './settings';
export { getSession, startRun, type ApiContext } from './session';
export { pause } from './pause';
export { runInLanes, type LaneResult } from './lanes';
export { CappedMap } from './cappedMap';
export {
	deduplicationMemories,
	MAX_DEDUPLICATION_EVENTS,
	runStarts,
	SHARED_STORE_CALLS_KEPT,
	sharedLeftoversToRepeat,
	sharedRecordsToRepeat,
	sharedStoreCallTimes,
	type DeduplicationMemory,
} from './processState';
