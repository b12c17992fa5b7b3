import type {
	IDataObject,
	INode,
	INodeListSearchResult,
	INodeType,
	IWorkflowExecuteAdditionalData,
	ResourceMapperFields,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { CommerceMessaging } from '../../nodes/CommerceMessaging/CommerceMessaging.node';
import { CREDENTIAL_TYPE, NODE_TYPE, type Engine } from './engine';

/** The node's pickers and the parameter each one fills. */
const PICKERS = {
	templateSearch: {
		parameters: { resource: 'template', operation: 'send' },
		parameter: 'templateId',
	},
	productSearch: {
		parameters: {
			resource: 'product',
			operation: 'get',
			productId: { __rl: true, mode: 'list', value: '' },
		},
		parameter: 'parameters.productId',
	},
} as const;

/**
 * Opens a picker the way n8n's editor backend does: a real n8n-core LoadOptionsContext for the node being edited,
 * `method.call(context, filter)`, with the engine's credentials helper (login included).
 */
export async function listSearch(
	engine: Engine,
	method: keyof typeof PICKERS,
	filter?: string,
): Promise<INodeListSearchResult> {
	const picker = PICKERS[method];
	const { nodeType, context } = loadOptionsContext(
		engine,
		picker.parameters as unknown as IDataObject,
		picker.parameter,
	);
	const search = nodeType.methods?.listSearch?.[method];
	if (!search) throw new Error(`${method} is not registered in methods.listSearch`);
	return await search.call(context, filter);
}

/** Loads a resource mapper's fields the way n8n's editor backend does, for a node with these parameters. */
export async function resourceMapping(
	engine: Engine,
	method: string,
	parameters: IDataObject,
	path = 'parameters.variables',
): Promise<ResourceMapperFields> {
	const { nodeType, context } = loadOptionsContext(engine, parameters, path);
	const load = nodeType.methods?.resourceMapping?.[method];
	if (!load) throw new Error(`${method} is not registered in methods.resourceMapping`);
	return await load.call(context);
}

function loadOptionsContext(engine: Engine, parameters: IDataObject, path: string) {
	const nodeType: INodeType = new CommerceMessaging();
	const node: INode = {
		id: 'subject',
		name: 'Commerce Messaging',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Commerce Messaging account' } },
	};
	const workflow = new Workflow({
		id: 'picker-test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		},
	});
	const additionalData = {
		credentialsHelper: engine.credentialsHelper,
		currentNodeParameters: node.parameters,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		variables: {},
		userId: 'engine-test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
	return { nodeType, context: new LoadOptionsContext(workflow, node, additionalData, path) };
}
