import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorContext, pause } from '../../../transport';
import { operations } from './operations';
import type { CommerceMessagingType } from './node.type';
import type { Operation, OperationResult } from './operation';

/**
 * The one place that loops over the input items. Every item is answered exactly once: its results carry
 * `pairedItem` pointing at it, or, with Continue On Fail, an error item paired to it; otherwise the run stops
 * with an error that names the item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as CommerceMessagingType['resource'];
	const operationName = this.getNodeParameter('operation', 0) as CommerceMessagingType['operation'];
	// Both come from the workflow's JSON, which may name what this version does not have.
	const operation = (operations[resource] as Record<string, Operation> | undefined)?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}

	const state = operation.prepare ? await operation.prepare.call(this, items.length) : undefined;
	const output: INodeExecutionData[] = [];
	try {
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				if (operation.beforeItem) await operation.beforeItem.call(this, itemIndex, state, async (ms) => await pause(this, ms));
				const result = await operation.execute.call(this, itemIndex, state);
				output.push(...pair(result, itemIndex));
			} catch (error) {
				if (this.continueOnFail()) {
					output.push({ json: errorJson(error), pairedItem: { item: itemIndex } });
					continue;
				}
				throw withItemIndex(this, error, itemIndex);
			}
		}
	} finally {
		// Runs even when an item stops the run, so what the earlier items did (e.g. dedup keys) is kept.
		if (operation.finish) await operation.finish.call(this, state);
	}
	return [output];
}

/** Each record becomes an item, each item stays as it is; either way paired to its input. */
function pair(result: OperationResult, itemIndex: number): INodeExecutionData[] {
	const items = 'items' in result ? result.items : result.records.map((json) => ({ json }));
	return items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
}

/** The error item of Continue On Fail: the message, and the service's code and HTTP status when there is one. */
function errorJson(error: unknown): IDataObject {
	const failure = error as Partial<NodeApiError>;
	const json: IDataObject = { error: failure.message ?? String(error) };
	if (failure.description) json.description = failure.description;
	const context = errorContext(error);
	if (context.serviceCode !== undefined) json.code = context.serviceCode;
	if (context.serviceMessage !== undefined) json.serviceMessage = context.serviceMessage;
	if (failure.httpCode) json.httpCode = failure.httpCode;
	if (context.fields) json.fields = context.fields;
	if (context.state) json.state = context.state;
	return json;
}

function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as JsonObject as unknown as Error, { itemIndex });
}
