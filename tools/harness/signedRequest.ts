/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/no-deprecated-workflow-functions -- a test-only node for the engine harness; it calls n8n's legacy helper on purpose, as the HTTP Request node does */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './engine';

/**
 * A node that signs one GET with the Commerce Messaging credential the way n8n's HTTP Request node does: through
 * n8n-core's request helpers (`requestWithAuthentication`, the legacy one, or `httpRequestWithAuthentication`), with
 * none of this package's transport around it. Tests of the credential's own path run it with the engine
 * (`new Engine(credentials, { [SIGNED_REQUEST]: new SignedRequest() })`).
 */
export const SIGNED_REQUEST = 'test.signedRequest';

export class SignedRequest implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signed Request',
		name: 'signedRequest',
		group: ['transform'],
		version: 1,
		description: 'One request signed with the Commerce Messaging credential by n8n-core',
		defaults: { name: 'Signed Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Helper', name: 'helper', type: 'string', default: 'legacy' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const url = this.getNodeParameter('url', 0) as string;
		const body =
			this.getNodeParameter('helper', 0) === 'legacy'
				? await this.helpers.requestWithAuthentication.call(this, CREDENTIAL_TYPE, {
						method: 'GET',
						uri: url,
						json: true,
					})
				: await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
						method: 'GET',
						url,
						json: true,
					});
		return [[{ json: body as INodeExecutionData['json'] }]];
	}
}
