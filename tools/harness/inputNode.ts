/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- a test-only node for the engine harness, never offered to an AI agent */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/**
 * The workflow's first node in engine tests: emits the items a test gives it, with binary data when asked,
 * so the node under test receives real input items (and real binary data) from n8n's engine.
 */
export class TestInput implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Input',
		name: 'testInput',
		group: ['input'],
		version: 1,
		description: 'Emits test items',
		defaults: { name: 'Test Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const specs = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
			json: IDataObject;
			binary?: Record<string, { base64: string; fileName: string; mimeType: string }>;
		}>;
		const output: INodeExecutionData[] = [];
		for (const spec of specs) {
			const item: INodeExecutionData = { json: spec.json ?? {} };
			if (spec.binary) {
				item.binary = {};
				for (const [property, file] of Object.entries(spec.binary)) {
					item.binary[property] = await this.helpers.prepareBinaryData(
						Buffer.from(file.base64, 'base64'),
						file.fileName,
						file.mimeType,
					);
				}
			}
			output.push(item);
		}
		return [output];
	}
}
