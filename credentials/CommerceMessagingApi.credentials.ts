import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { pageQuery } from '../transport/pagination';
import { ROUTES } from '../transport/routes';
import {
	assertHeaderValueSafe,
	assertSafeBaseUrl,
	extractLoginToken,
	pluginHeaders,
	readCredentials,
} from '../transport/auth';

/** Reads a JSend error's message and code from a failed login, without ever echoing the request. */
function describeLoginFailure(error: unknown): string {
	const failure = error as { response?: { status?: number; data?: unknown }; message?: string };
	const status = failure.response?.status;
	let body = failure.response?.data;
	if (typeof body === 'string') {
		try {
			body = JSON.parse(body);
		} catch {
			body = undefined;
		}
	}
	const envelope = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const message = typeof envelope.message === 'string' ? envelope.message : undefined;
	const code = envelope.code !== undefined ? String(envelope.code) : undefined;
	if (status === undefined) {
		return `the service could not be reached (${failure.message ?? 'network error'})`;
	}
	// The service's message verbatim, then its code and the HTTP status.
	const details = [code ? `code ${code}` : undefined, `HTTP ${status}`].filter(Boolean).join(', ');
	return `${message ?? 'login refused'} (${details})`;
}

/**
 * Rule A4: a login succeeds even when the account has API access disabled; only API calls fail. One cheap call
 * right after login turns that into a message that says so, in the service's words, wherever the login runs
 * (node runs, the HTTP Request node, and the credential's Test button, which always logs in anew).
 * Only an explicit refusal fails the login; a busy or unreachable service is left to the real call.
 */
async function probeApiAccess(helper: IHttpRequestHelper, baseUrl: string, token: string, username: string) {
	let refusal: string | undefined;
	try {
		await helper.helpers.httpRequest({
			method: ROUTES.contactList.method,
			url: `${baseUrl}${ROUTES.contactList.path}`,
			qs: { currentPage: 1, page: 1, limit: 1 },
			headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
			json: true,
		});
	} catch (error) {
		// A 403 (or a 401 that names API access) is the refusal; a 401 about the token itself is left to the
		// transport, which renews the token once.
		const status = (error as { response?: { status?: number } }).response?.status;
		const described = describeLoginFailure(error);
		if (status === 403 || (status === 401 && /api.?access/i.test(described))) refusal = described;
	}
	if (refusal !== undefined) {
		throw new Error(
			`Login worked, but the service refuses API calls for "${username}": ${refusal}. Ask an administrator to enable "API access" (User.hasApiAccess) for this user in the service's administration area.`,
		);
	}
}

export class CommerceMessagingApi implements ICredentialType {
	name = 'commerceMessagingApi';

	displayName = 'Commerce Messaging API';

	icon = { light: 'file:commerceMessaging.svg', dark: 'file:commerceMessaging.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-commerce-messaging/n8n-nodes-commerce-messaging#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the service, without a trailing slash. Must be https (http only for localhost).',
			hint: 'https:// only (http:// just for localhost), without a trailing slash',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'name@shop.com',
			description: 'The account must have API access enabled (User.hasApiAccess) in the administration area',
			hint: 'The account needs "API access" switched on in the service\'s administration area',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			// Filled by preAuthentication; n8n renews it when it is empty or after a 401.
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// Heads the optional group below: what it is for and when it is needed.
			displayName:
				'Shop plugin (optional): needed for products and the product trigger. Switch on and fill in the secret key, platform and shop address of your e-commerce plugin; they are sent as the x-api-key, x-platform-type and x-base-uri headers.',
			name: 'pluginNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Plugin Integration',
			name: 'pluginIntegration',
			type: 'boolean',
			default: false,
			description:
				'Whether to send the e-commerce plugin secret-key headers (x-api-key, x-platform-type, x-base-uri). Required for products.',
		},
		{
			displayName: 'Plugin API Key',
			name: 'pluginApiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { pluginIntegration: [true] } },
			description: 'Secret key issued to your shop plugin, sent as x-api-key',
		},
		{
			displayName: 'Platform Type',
			name: 'pluginPlatformType',
			type: 'options',
			default: 'custom',
			displayOptions: { show: { pluginIntegration: [true] } },
			options: [
				{ name: 'Custom Cart', value: 'custom' },
				{ name: 'Magento', value: 'magento' },
				{ name: 'PrestaShop', value: 'prestashop' },
				{ name: 'Shopify', value: 'shopify' },
				{ name: 'WooCommerce', value: 'woocommerce' },
			],
			description: 'Shop platform, sent as x-platform-type',
		},
		{
			displayName: 'Shop Base URI',
			name: 'pluginBaseUri',
			type: 'string',
			default: '',
			placeholder: 'https://shop.example.com',
			displayOptions: { show: { pluginIntegration: [true] } },
			description: 'Public address of your shop, sent as x-base-uri',
		},
	];

	/** Rule A1: exchange username and password for a JWT. The password is never put in an error. */
	async preAuthentication(this: IHttpRequestHelper, data: ICredentialDataDecryptedObject) {
		const credentials = readCredentials(data);
		assertSafeBaseUrl(credentials.baseUrl);
		let body: unknown;
		try {
			body = await this.helpers.httpRequest({
				method: ROUTES.login.method,
				url: `${credentials.baseUrl}${ROUTES.login.path}`,
				body: { username: credentials.username, password: credentials.password },
				json: true,
			});
		} catch (error) {
			throw new Error(`Login to the Commerce Messaging service failed: ${describeLoginFailure(error)}`);
		}
		const sessionToken = extractLoginToken(body);
		if (!sessionToken) {
			throw new Error('Login to the Commerce Messaging service returned no token');
		}
		await probeApiAccess(this, credentials.baseUrl, sessionToken, credentials.username);
		return { sessionToken };
	}

	/** Rules A2 and A5: one space after Bearer; plugin headers only when configured; no CR/LF smuggling. */
	authenticate: IAuthenticate = async (
		data: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const credentials = readCredentials(data);
		assertHeaderValueSafe('Session Token', credentials.sessionToken);
		const { headers: plugin } = pluginHeaders(credentials);
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			...plugin,
			Authorization: `Bearer ${credentials.sessionToken}`,
		};
		return requestOptions;
	};

	/** Proves login (preAuthentication runs first) AND API access: the contact list needs both. */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: ROUTES.contactList.path,
			method: 'GET',
			qs: pageQuery(1, 1),
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'Login worked, but API access is disabled for this account: ask an administrator to enable "API access" (User.hasApiAccess) for this user',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The service refused the session token (check the username, password and Base URL)',
				},
			},
		],
	};
}
