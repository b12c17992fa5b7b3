import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

/**
 * A credentials helper that behaves like n8n's own (packages/cli CredentialsHelper) for what this package uses:
 * preAuthentication runs when the hidden `expirable` field is empty or when n8n says the credential expired,
 * the new token is stored (as n8n stores it in its database) and merged into the caller's object, and a
 * function `authenticate` is applied to every request. n8n's NodeTestHarness skips both; our tests need them.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** Stored credential data by type, as n8n's database would hold it (decrypted). */
	readonly stored: Record<string, ICredentialDataDecryptedObject> = {};

	/** How often preAuthentication ran (i.e. logins), by type. */
	readonly preAuthenticationRuns: Record<string, number> = {};

	/** Whether to keep `signedRequests` (off by default: benchmarks sign many thousands). */
	recordSignedRequests = false;

	/**
	 * Each request a node handed n8n to sign, as the node built it (before the credential added its headers): what
	 * the node asked n8n to send, e.g. whether it set a Content-Type by hand.
	 */
	readonly signedRequests: Array<{
		method?: string;
		url: string;
		headers: Record<string, unknown>;
		body: unknown;
	}> = [];

	constructor(private readonly types: Record<string, ICredentialType>) {
		super();
	}

	setCredentials(type: string, data: ICredentialDataDecryptedObject) {
		const credentialType = this.types[type];
		// n8n applies property defaults when it decrypts; the hidden token field defaults to ''.
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of credentialType?.properties ?? []) {
			if (property.default !== undefined) {
				defaults[property.name] = property.default as ICredentialDataDecryptedObject[string];
			}
		}
		this.stored[type] = { ...defaults, ...data };
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		if (this.recordSignedRequests) {
			const legacy = requestOptions as IHttpRequestOptions & { uri?: string };
			this.signedRequests.push({
				method: requestOptions.method,
				url: String(requestOptions.url ?? legacy.uri ?? ''),
				headers: { ...(requestOptions.headers ?? {}) },
				body: requestOptions.body,
			});
		}
		const authenticate = this.types[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate) throw new Error('Generic authenticate objects are not used by this package');
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.types[typeName];
		const expirable = credentialType?.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof credentialType.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		this.preAuthenticationRuns[typeName] = (this.preAuthenticationRuns[typeName] ?? 0) + 1;
		if (node.credentials) {
			await this.updateCredentials(node.credentials[typeName], typeName, {
				...credentials,
				...(output as ICredentialDataDecryptedObject),
			});
		}
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.types[typeName];
		if (typeof credentialType?.preAuthentication !== 'function') return undefined;
		return (await credentialType.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	getCredentialsProperties(type: string) {
		return this.types[type]?.properties ?? [];
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		// A fresh copy each time, as n8n decrypts from its database on every call.
		return { ...(this.stored[type] ?? {}) };
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		return new Credentials(
			{ id: nodeCredentials.id ?? null, name: nodeCredentials.name },
			type,
			'',
		);
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails | undefined,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getOAuth2Options() {
		return undefined;
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}
}
