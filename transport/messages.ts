import {
	type IDataObject,
	type INode,
	type JsonObject,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import type { ServiceFailure } from './failures';
import { formatCount, formatDuration, formatMegabytes } from './format';
import type { Exchange } from './http';
import { MAX_ANSWER_BYTES, MAX_ANSWER_DEPTH, type SettingNames } from './settings';

/**
 * The errors the user sees, worded to say what happened and what to do (rule E2: the service's own message and code
 * first). The error body kept on an error is the service's envelope only, never the request, so no secret can
 * travel in error details (rule A6). Every message here is fixed text plus counts, times and the service's words.
 */

/** What an error says beyond its message, for the Continue On Fail error item (the router reads it back). */
export interface ErrorContext {
	/** The service's own message and code, verbatim (rule E2). */
	serviceMessage?: string;
	serviceCode?: string;
	/** Field names a validation failure points at (rule E3). */
	fields?: string[];
	/** A template's state (rule E4, or the node's check before a send or while waiting). */
	state?: string;
}

/** Puts the given parts of the context on an n8n error (its `context` travels with it into the execution). */
export function withContext<E extends { context: IDataObject }>(error: E, context: ErrorContext) {
	for (const [key, value] of Object.entries(context))
		if (value !== undefined) error.context[key] = value;
	return error;
}

/** What a failed request went through, for its error's description. */
interface RequestNotes {
	/** Attempts sent; waits between its own attempts and, before sending, for the service's rate limit (ms). */
	attempts?: number;
	backoffMs?: number;
	rateLimitWaitMs?: number;
	names?: SettingNames;
	/** Why the request was not tried again, when it could have been. */
	gaveUp?: string;
	/** For a plugin-header refusal: the credential fields still empty. */
	missingPluginFields?: string[];
	/** A write that reached the service and failed is not sent again: it may have been applied. */
	maybeApplied?: boolean;
}

const NOT_RETRIED =
	'Not retried automatically: the service may already have processed this request, and sending it again could duplicate it.';

/** "It was sent 3 times, with 3 s of backoff between attempts; gave up after 3 attempts." */
function historyNote({ gaveUp, attempts = 1, backoffMs = 0, rateLimitWaitMs = 0 }: RequestNotes) {
	if (!gaveUp) return '';
	return (
		(attempts <= 1 ? 'It was sent once' : `It was sent ${attempts} times`) +
		(backoffMs >= 1_000 ? `, with ${formatDuration(backoffMs)} of backoff between attempts` : '') +
		(rateLimitWaitMs >= 1_000
			? `, after waiting ${formatDuration(rateLimitWaitMs)} in all for the service's rate limit`
			: '') +
		`; ${gaveUp}.`
	);
}

/** " To wait longer, raise <the settings as the node names them>." */
function raiseHint(names: SettingNames | undefined, ...keys: Array<keyof SettingNames>) {
	const named = keys.map((key) => names?.[key]).filter(Boolean);
	return named.length ? ` To wait longer, raise ${named.join(' or ')}.` : '';
}

/** A service's text as a sentence of a description: ended with one period. */
const sentence = (text: string) => text.replace(/\.?\s*$/, '.');

const describeData = (data: unknown) =>
	data == null ? undefined : typeof data === 'string' ? data : `Details: ${JSON.stringify(data)}`;

function explain(failure: ServiceFailure, notes: RequestNotes) {
	const { message, httpStatus, data, fields } = failure;
	const note = historyNote(notes);
	switch (failure.kind) {
		case 'apiAccess':
			return {
				message: `API access is disabled for this account: ${message}`,
				description:
					'The login worked, but the service refuses API calls for this user. Ask an administrator to enable "API access" (User.hasApiAccess) for the user in the service\'s administration area, then run the workflow again.',
			};
		case 'pluginAuth': {
			// The fields to fill go in the message itself: a picker or a trigger shows only the message.
			const missing = notes.missingPluginFields?.join(', ');
			const fill = `in the Commerce Messaging credential`;
			return {
				message: `The service requires the shop plugin headers for this call (${missing ? `fill in ${missing} ${fill}` : `check the Plugin API Key, Platform Type and Shop Base URI ${fill}`}): ${message}`,
				description: missing
					? `Fill in ${missing} ${fill} (sent as x-api-key, x-platform-type and x-base-uri).`
					: 'The credential sends the plugin headers, but the service refused them: check their values.',
			};
		}
		case 'validation':
			return {
				message: `The service rejected the data${fields?.length ? ` (field: ${fields.join(', ')})` : ''}: ${message}`,
				description: describeData(data),
			};
		case 'templateNotApproved': {
			const reason = (data as IDataObject | undefined)?.reason;
			// Rule T1: only a DRAFT is submitted; a rejected template cannot be submitted again, a corrected one is created.
			// A state the document does not list (a provider's PAUSED) gets no step that may not fit it.
			return {
				message: `The template cannot be sent: it is ${failure.state ?? 'not APPROVED'}, and only APPROVED templates can be sent`,
				description: `Service message: ${sentence(message)}${typeof reason === 'string' ? ` Rejection reason: ${sentence(reason)}` : ''} ${{ DRAFT: 'Submit the template for review', REJECTED: 'Create a corrected template, submit it for review', PENDING: 'Wait until its review is over' }[String(failure.state)] ?? 'Check its state in the service'} and send it once it is APPROVED.`,
			};
		}
		case 'rateLimit':
			return {
				message: `Rate limited by the service: ${message}`,
				description: note
					? `${note}${raiseHint(notes.names, 'retryBudget', 'maxAttempts')}${notes.names?.sendLess ? ` Or send less at once: ${notes.names.sendLess}.` : ''}`
					: undefined,
			};
		case 'tokenRefused':
			return {
				message: `The service refused the session token right after a fresh login: ${message}`,
				description:
					'The login worked, but the next call was refused with HTTP 401. The service may be rejecting the tokens it issues (a signing-key or configuration problem on its side), or the account is being logged out. The node logged in once and retried once; it does not loop.',
			};
		case 'unavailable':
			return {
				message: [502, 503, 504].includes(httpStatus)
					? `The service is unavailable (HTTP ${httpStatus}): ${message}`
					: `The service failed with HTTP ${httpStatus}: ${message}`,
				description: note || (notes.maybeApplied ? NOT_RETRIED : undefined),
			};
		default:
			return { message, description: describeData(data) };
	}
}

/** A service failure as the NodeApiError the user sees: its message and code (rule E2), and what to do about it. */
export function serviceError(
	node: INode,
	failure: ServiceFailure,
	itemIndex?: number,
	notes: RequestNotes = {},
) {
	const { message, description } = explain(failure, notes);
	const { code, data, httpStatus } = failure;
	return withContext(
		new NodeApiError(
			node,
			{
				message: failure.message,
				httpStatus,
				...(code ? { code } : {}),
				...(data !== undefined ? { data: data as JsonObject } : {}),
			},
			{
				message: `${message}${code ? ` [${code}]` : ''}`,
				description,
				httpCode: String(httpStatus),
				itemIndex,
			},
		),
		{
			serviceMessage: failure.message,
			serviceCode: code,
			fields: failure.fields?.length ? failure.fields : undefined,
			state: failure.state,
		},
	);
}

/** A connection that failed, or an attempt past its deadline: the time it really waited, and what it went through. */
export function networkError(
	node: INode,
	failure: { code: string; reason: string; timedOut: boolean; waitedMs: number },
	itemIndex?: number,
	notes: RequestNotes = {},
) {
	const note = historyNote(notes);
	// The message is set after construction: n8n rewrites messages that mention a network error code into generic text.
	return Object.assign(
		new NodeApiError(
			node,
			{ message: failure.reason, networkErrorCode: failure.code },
			{
				description: notes.maybeApplied
					? NOT_RETRIED
					: failure.timedOut
						? `An attempt may take as long as the Timeout${notes.names?.timeout ? ` (${notes.names.timeout})` : ''}, from connecting to the last byte of the answer.${note ? ` ${note}` : ''}${raiseHint(notes.names, 'timeout')}`
						: `Check the Base URL and that the service is reachable.${note ? ` ${note}` : ''}`,
				itemIndex,
			},
		),
		{
			message: failure.timedOut
				? `The service did not answer in time: the request timed out after ${formatDuration(failure.waitedMs)} (${failure.code})`
				: `The connection to the service failed (${failure.reason})`,
		},
	);
}

/** An error with a message and a description of our own: a refused login, a redirect, an answer too large. */
export const plainApiError = (
	node: INode,
	message: string,
	description: string,
	itemIndex?: number,
	httpCode?: string,
) =>
	new NodeApiError(
		node,
		{ message, ...(httpCode ? { httpCode } : {}) },
		{ message, description, itemIndex, httpCode },
	);

/**
 * An exchange that brought no answer and is not tried again; `notes`: what a login the service could not serve went
 * through.
 */
export function exchangeError(
	node: INode,
	outcome: Exclude<Exchange, { kind: 'answer' | 'network' }>,
	itemIndex?: number,
	notes: RequestNotes = {},
) {
	switch (outcome.kind) {
		case 'tooLarge':
			return plainApiError(
				node,
				`The service's answer is larger than ${formatMegabytes(MAX_ANSWER_BYTES)}, the most this node reads in one answer`,
				'For a list, ask smaller pages (a Limit, or paging of your own). Nothing of the answer was used.',
				itemIndex,
			);
		case 'tooDeep':
			return plainApiError(
				node,
				`The service's answer is nested more than ${MAX_ANSWER_DEPTH} levels deep, more than n8n can store and show`,
				'Nothing of the answer was used. Ask the service for a flatter answer.',
				itemIndex,
			);
		case 'cancelled':
			return new NodeOperationError(
				node,
				'The execution was cancelled while a request was under way',
				{ itemIndex },
			);
		case 'loginFailed': {
			const { refusal, message, retry } = outcome.failure;
			return withContext(
				plainApiError(
					node,
					message,
					retry
						? `The service could not serve the login now (no connection, a rate limit or a failing service), not a problem of the credential. ${historyNote(notes)}${raiseHint(notes.names, 'retryBudget', 'maxAttempts')}`.trim()
						: refusal
							? 'Check the username, password and Base URL of the Commerce Messaging credential.'
							: 'The login gave this run no usable token; the message says why.',
					itemIndex,
					refusal && String(refusal.httpStatus),
				),
				{ serviceMessage: refusal?.message, serviceCode: refusal?.code },
			);
		}
		default:
			return networkError(
				node,
				{
					code: 'NETWORK_ERROR',
					reason: (outcome.error as Error)?.message ?? 'unknown network error',
					timedOut: false,
					waitedMs: 0,
				},
				itemIndex,
			);
	}
}

/** A whole-list read past one of its ceilings; `name` is how the node names the setting, if it does. */
export const listCeilingError = (
	node: INode,
	ceiling: string,
	name: string | undefined,
	itemIndex?: number,
) =>
	plainApiError(
		node,
		`The list goes on beyond ${ceiling}, the most read in one go${name ? ` (${name})` : ''}`,
		// A poll or a picker has no item, and no Limit to offer.
		`Nothing was output, so no partial list is taken for the whole. If the list really is that long${name ? `, raise ${name}` : ''}${itemIndex === undefined ? '.' : '; otherwise use Limit, or a filter, to read a part of it.'}`,
		itemIndex,
	);

export const repeatedPageError = (
	node: INode,
	page: number,
	earlier: number,
	total: number,
	before: number,
	itemIndex?: number,
) =>
	plainApiError(
		node,
		`The service returned the same records for page ${page} as for page ${earlier}: it seems to ignore the page parameter, so paging was stopped`,
		`The list says it holds ${formatCount(total)} records; ${formatCount(before)} came before the repeated page.`,
		itemIndex,
	);
