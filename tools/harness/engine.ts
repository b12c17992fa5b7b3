import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { CommerceMessagingApi } from '../../credentials/CommerceMessagingApi.credentials';
import { CommerceMessaging } from '../../nodes/CommerceMessaging/CommerceMessaging.node';
import { TestCredentialsHelper } from './credentialsHelper';
import { TestInput } from './inputNode';
import { testAdditionalData } from './additionalData';

export const NODE_TYPE = 'n8n-nodes-commerce-messaging.commerceMessaging';
export const CREDENTIAL_TYPE = 'commerceMessagingApi';

class NodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(name: string): INodeType | IVersionedNodeType {
		const type = this.types[name];
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		const type = this.getByName(name);
		// A versioned type (e.g. n8n-nodes-base's HTTP Request node) holds one INodeType per version.
		return 'nodeVersions' in type ? type.getNodeType(version) : type;
	}

	getKnownTypes() {
		return {};
	}
}

export interface InputItem {
	json: IDataObject;
	binary?: Record<string, { base64: string; fileName: string; mimeType: string }>;
}

export interface RunOptions {
	/** Parameters of the Commerce Messaging node. */
	parameters: IDataObject;
	items?: InputItem[];
	continueOnFail?: boolean;
	nodeType?: string;
	/** typeVersion of the node under test (1 unless given; e.g. 4.2 for n8n's HTTP Request node). */
	typeVersion?: number;
	/** Node settings of the node under test beyond parameters (e.g. retryOnFail, maxTries, waitBetweenTries). */
	nodeSettings?: Partial<INode>;
	/** The credential the node names (id and name); its data is the Engine's. Default: id "1". */
	credential?: { id: string; name: string };
	/** An optional node after the node under test (e.g. n8n's Split Out); its output is `RunResult.finalItems`. */
	next?: { type: string; typeVersion?: number; parameters: IDataObject };
}

export interface RunResult {
	run: IRun;
	/** Output items of the node under test (first output). */
	items: INodeExecutionData[];
	/** The node's error when the run stopped on it. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string | null };
	inputCount: number;
	/** Output items of the `next` node when one was given, else the same as `items`. */
	finalItems: INodeExecutionData[];
}

/**
 * Runs a two-node workflow (Test Input -> node under test) through n8n-core's WorkflowExecute, the engine n8n
 * itself uses, with a credentials helper that logs in like n8n's. One Engine keeps credentials (and the token
 * n8n stores) and the workflow's static data across runs, like one saved workflow run several times.
 */
export class Engine {
	readonly credentialsHelper: TestCredentialsHelper;

	readonly staticData: IDataObject = {};

	private readonly nodeTypes: NodeTypes;

	constructor(
		credentials: ICredentialDataDecryptedObject,
		extraNodeTypes: Record<string, INodeType | IVersionedNodeType> = {},
	) {
		const credentialTypes: Record<string, ICredentialType> = {
			[CREDENTIAL_TYPE]: new CommerceMessagingApi(),
		};
		this.credentialsHelper = new TestCredentialsHelper(credentialTypes);
		this.credentialsHelper.setCredentials(CREDENTIAL_TYPE, credentials);
		this.nodeTypes = new NodeTypes({
			[NODE_TYPE]: new CommerceMessaging(),
			'test.input': new TestInput(),
			...extraNodeTypes,
		});
	}

	get logins(): number {
		return this.credentialsHelper.preAuthenticationRuns[CREDENTIAL_TYPE] ?? 0;
	}

	get storedCredentials(): ICredentialDataDecryptedObject {
		return this.credentialsHelper.stored[CREDENTIAL_TYPE];
	}

	async run(options: RunOptions): Promise<RunResult> {
		const items = options.items ?? [{ json: {} }];
		const input: INode = {
			id: 'input',
			name: 'Input',
			type: 'test.input',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(items) },
		};
		const subject: INode = {
			id: 'subject',
			name: 'Commerce Messaging',
			type: options.nodeType ?? NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters as INode['parameters'],
			credentials: {
				[CREDENTIAL_TYPE]: options.credential ?? { id: '1', name: 'Commerce Messaging account' },
			},
			continueOnFail: options.continueOnFail ?? false,
			onError: options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow',
			...options.nodeSettings,
		};
		const nodes = [input, subject];
		const connections: IConnections = {
			Input: { main: [[{ node: subject.name, type: 'main', index: 0 }]] },
		};
		if (options.next) {
			nodes.push({
				id: 'next',
				name: 'Next',
				type: options.next.type,
				typeVersion: options.next.typeVersion ?? 1,
				position: [400, 0],
				parameters: options.next.parameters as INode['parameters'],
			});
			connections[subject.name] = { main: [[{ node: 'Next', type: 'main', index: 0 }]] };
		}
		const workflow = new Workflow({
			id: 'engine-test',
			nodes,
			connections,
			nodeTypes: this.nodeTypes,
			staticData: this.staticData,
			active: false,
		});

		const hooks = new ExecutionLifecycleHooks('manual', 'engine-test-execution', {
			id: 'engine-test',
			name: 'engine test',
			nodes,
			connections: {},
			active: false,
			settings: {},
		} as never);
		let resolveFinished: (run: IRun) => void = () => {};
		const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));

		const additionalData = testAdditionalData(hooks, this.credentialsHelper, 'engine-test');

		const runExecutionData: IRunExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: input, data: { main: [[{ json: {} }]] }, source: null }],
			},
		});

		const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
		await execute.processRunExecutionData(workflow);
		const run = await finished;
		const taskData = run.data.resultData.runData[subject.name]?.[0];
		const subjectItems = taskData?.data?.main?.[0] ?? [];
		return {
			run,
			items: subjectItems,
			error: (taskData?.error ?? run.data.resultData.error) as RunResult['error'],
			inputCount: items.length,
			finalItems: options.next
				? (run.data.resultData.runData.Next?.[0]?.data?.main?.[0] ?? [])
				: subjectItems,
		};
	}
}

/** Every input item is answered by at least one output item paired to it, and no output is unpaired. */
export function pairedInputs(result: RunResult): number[] {
	const answered = new Set<number>();
	for (const item of result.items) {
		const paired = item.pairedItem;
		if (paired === undefined || Array.isArray(paired) || typeof paired === 'number') {
			throw new Error(`Output item without a single pairedItem: ${JSON.stringify(item.json)}`);
		}
		answered.add(paired.item);
	}
	return [...answered].sort((a, b) => a - b);
}

/** Everything a user or a log could see of a run: outputs, the error with its description and context (rule A6). */
export function visibleText(result: RunResult): string {
	const error = result.error;
	return JSON.stringify({
		items: result.items.map((item) => item.json),
		error: error && {
			message: error.message,
			description: error.description,
			context: error.context,
			stack: error.stack,
		},
		runError: result.run.data.resultData.error,
	});
}
