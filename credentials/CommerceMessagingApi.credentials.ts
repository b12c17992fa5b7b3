import type {
	IAuthenticate,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import {
	assertCredentialFieldsUsable,
	assertHeaderValueSafe,
	isSealedFor,
	logIn,
	pluginHeaders,
	readCredentials,
} from '../transport/auth';
import { pageQuery } from '../transport/pagination';
import { ROUTES } from '../transport/routes';

const API_CALL_REFUSED =
	'Login worked, but the service refused an API call with the new token. If API access is disabled for this account, ask an administrator to enable "API access" (User.hasApiAccess); otherwise check the service';

/** The plugin fields show only while Plugin Integration is on. */
const pluginShown = { show: { pluginIntegration: [true] } };

export class CommerceMessagingApi implements ICredentialType {
	name = 'commerceMessagingApi';
	displayName = 'Commerce Messaging API';
	icon = { light: 'file:commerceMessaging.svg', dark: 'file:commerceMessaging.dark.svg' } as const;
	documentationUrl =
		'https://github.com/n8n-nodes-commerce-messaging/n8n-nodes-commerce-messaging#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			hint: 'https:// only (http:// just for localhost), without a trailing slash',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'name@shop.com',
			hint: 'The account needs "API access" (User.hasApiAccess) switched on in the service\'s administration area',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		// Filled by preAuthentication; n8n renews it when it is empty or after a 401.
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		// The account the token was issued for (transport/auth.ts sealFor): n8n keeps hidden fields through an edit.
		{
			displayName: 'Session Token Seal',
			name: 'sessionTokenSeal',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		// When (local clock, ms) the token was received: its expiry is judged from this plus its lifetime (rule A3).
		{ displayName: 'Login Received At', name: 'loginReceivedAt', type: 'hidden', default: 0 },
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
			description: 'Whether to send the shop plugin headers (needed for products)',
		},
		{
			displayName: 'Plugin API Key',
			name: 'pluginApiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: pluginShown,
			description: 'Secret key issued to your shop plugin, sent as x-api-key',
		},
		{
			displayName: 'Platform Type',
			name: 'pluginPlatformType',
			type: 'options',
			default: 'custom',
			displayOptions: pluginShown,
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
			displayOptions: pluginShown,
			description: 'Public address of your shop, sent as x-base-uri',
		},
	];

	/**
	 * Rule A1: exchange username and password for a JWT, with one request. The password is never put in an error. The
	 * node's run hands its Timeout to the login on this same data object (transport/auth.ts LOGIN_LIMITS).
	 */
	preAuthentication = logIn;

	/**
	 * Rules A2 and A5: one space after Bearer; plugin headers only when configured; no CR/LF smuggling. Rule A6, for
	 * every request this credential signs (the node's, and n8n's HTTP Request node's): only to the Base URL's origin.
	 */
	authenticate: IAuthenticate = async (data, requestOptions) => {
		const credentials = readCredentials(data);
		assertCredentialFieldsUsable(credentials);
		assertHeaderValueSafe('Session Token', credentials.sessionToken);
		const legacy = requestOptions as { uri?: string | URL; baseUrl?: string };
		const target = String(requestOptions.url ?? legacy.uri);
		const base = (requestOptions.baseURL ?? legacy.baseUrl) || undefined;
		const origin = URL.canParse(target, base) ? new URL(target, base).origin : undefined;
		const own = new URL(credentials.baseUrl).origin;
		if (origin !== own) {
			throw new Error(
				`The Commerce Messaging credential only signs requests to its own service (${own}); this request goes to ${origin ? new URL(origin).host : 'an address that is not a full URL'}, so it was not sent with the credential`,
			);
		}
		if (!isSealedFor(data, credentials)) {
			// A token issued before the credential was edited is never sent: failing the way a refused token does makes
			// n8n log in again and sign anew first, whatever a service answers a request without a token (401 or 403).
			throw Object.assign(
				new Error(
					'The session token was issued before the credential was edited: logging in again',
				),
				{
					response: { status: 401 },
				},
			);
		}
		return Object.assign(requestOptions, {
			headers: {
				...requestOptions.headers,
				...pluginHeaders(credentials),
				Authorization: `Bearer ${credentials.sessionToken}`,
			},
			// Never follow a redirect with these headers (n8n would re-send them to wherever it points), in both forms:
			// n8n's httpRequest options and the legacy request options of the HTTP Request node.
			disableFollowRedirect: true,
			followRedirect: false,
			followAllRedirects: false,
		});
	};

	/** Proves login (preAuthentication runs first) and API access (rule A4, probed only here): the contact list needs both. */
	test: ICredentialTestRequest = {
		request: {
			// As the nodes read it (normalizeBaseUrl): trimmed, without trailing slashes.
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: ROUTES.contactList.path,
			method: ROUTES.contactList.method,
			disableFollowRedirect: true,
			qs: pageQuery(1, 1),
			// The refusal is read from the JSend body by the rules below, the same way in n8n 1.x and 2.x (1.x does
			// not apply responseCode rules to this request's errors).
			ignoreHttpStatusErrors: true,
		},
		// Each rule: the body's key, the value that marks a refusal, the message shown.
		rules: (
			[
				[
					'code',
					'API_ACCESS_DISABLED',
					'Login worked, but API access is disabled for this account: ask an administrator to enable "API access" (User.hasApiAccess) for this user',
				],
				['status', 'error', API_CALL_REFUSED],
				['status', 'fail', API_CALL_REFUSED],
				// A LexikJWT-style refusal without a JSend status: {"code":401,"message":"..."}.
				['code', 401, API_CALL_REFUSED],
				// An answer that is not JSON reaches the rules as text: empty (a token refused without a word, or a
				// service that says nothing), or a page (an HTML error page, whatever its status).
				[
					'length',
					0,
					'Login worked, but the service answered an API call with nothing at all. If it refused the new token, ask an administrator to enable "API access" (User.hasApiAccess) for this account; otherwise check the Base URL and the service',
				],
				[
					'constructor.name',
					'String',
					'Login worked, but the service answered an API call with a page that is not JSON (an error page or a website): check the Base URL and that the service is up',
				],
			] as const
		).map(([key, value, message]) => ({
			type: 'responseSuccessBody',
			properties: { key, value, message },
		})),
	};
}
