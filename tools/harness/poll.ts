/* eslint-disable @n8n/community-nodes/no-restricted-globals -- engine-harness code: runs in jest, not inside n8n */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IPollFunctions,
	IRun,
	IWorkflowExecuteAdditionalData,
	IVersionedNodeType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import {
	ExecutionLifecycleHooks,
	PollContext,
	PollTriggerExecutor,
	WorkflowExecute,
} from 'n8n-core';
import { Container } from '@n8n/di';
// n8n's node loader adds these (Poll Times) to every polling node; they are not exported from the package root.
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';

import { CommerceMessagingApi } from '../../credentials/CommerceMessagingApi.credentials';
import { CommerceMessagingTrigger } from '../../nodes/CommerceMessaging/CommerceMessagingTrigger.node';
import { TestCredentialsHelper } from './credentialsHelper';
import type { Sandbox } from './sandbox';
import { testAdditionalData } from './additionalData';

export const TRIGGER_TYPE = 'n8n-nodes-commerce-messaging.commerceMessagingTrigger';
const CREDENTIAL_TYPE = 'commerceMessagingApi';
const NODE_NAME = 'Commerce Messaging Trigger';

/** The trigger as n8n's loader hands it to the engine: with the polling parameters applied. */
function loadedTrigger(): INodeType {
	const trigger = new CommerceMessagingTrigger();
	trigger.description.properties.unshift(...commonPollingParameters);
	return trigger;
}

class NodeTypes implements INodeTypes {
	private readonly trigger = loadedTrigger();

	getByName(name: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(name);
	}

	getByNameAndVersion(name: string): INodeType {
		if (name !== TRIGGER_TYPE) throw new Error(`Unknown node type ${name}`);
		return this.trigger;
	}

	getKnownTypes() {
		return {};
	}
}

export interface PollOutcome {
	/** The items n8n started the workflow with (the trigger node's output); [] when the poll found nothing. */
	items: INodeExecutionData[];
	/** Whether the poll emitted (a scheduled poll returning null starts no execution). */
	emitted: boolean;
	/** The poll's error: thrown at activation or in manual mode, handed to __emitError on a scheduled poll. */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string | null };
}

/**
 * Runs the Commerce Messaging Trigger the way n8n runs an active polling workflow: one Workflow object and one
 * PollContext for the whole activation (so static data lives across polls, in memory, exactly as in n8n), the first
 * poll run at activation, each scheduled tick run by n8n-core's PollTriggerExecutor (the function n8n's scheduler
 * calls), and an emitted poll result run through WorkflowExecute in 'trigger' mode. `fetchTestEvent` is the editor's
 * "Fetch Test Event": a manual execution of the trigger node. Credentials log in like n8n's credentials helper.
 */
export class PollHarness {
	readonly credentialsHelper: TestCredentialsHelper;

	/** The workflow's static data, shared by every poll of this harness (n8n keeps it per workflow). */
	readonly staticData: IDataObject = {};

	private readonly nodeTypes = new NodeTypes();

	private readonly node: INode;

	private workflow?: Workflow;

	private tick?: (testingTrigger?: boolean) => Promise<void>;

	private emitted?: Promise<INodeExecutionData[]>;

	private emittedError?: Error;

	/** Every emission of the active workflow, in order: polls running at the same time each add theirs. */
	private readonly emissions: Array<Promise<INodeExecutionData[]>> = [];

	constructor(credentials: ICredentialDataDecryptedObject, parameters: IDataObject) {
		const credentialTypes: Record<string, ICredentialType> = {
			[CREDENTIAL_TYPE]: new CommerceMessagingApi(),
		};
		this.credentialsHelper = new TestCredentialsHelper(credentialTypes);
		this.credentialsHelper.setCredentials(CREDENTIAL_TYPE, credentials);
		this.node = {
			id: 'trigger',
			name: NODE_NAME,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: parameters as INode['parameters'],
			credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Commerce Messaging account' } },
		};
	}

	get logins(): number {
		return this.credentialsHelper.preAuthenticationRuns[CREDENTIAL_TYPE] ?? 0;
	}

	/** The node's own static data (`getWorkflowStaticData('node')`). */
	get nodeStaticData(): IDataObject {
		return (this.staticData[`node:${NODE_NAME}`] ?? {}) as IDataObject;
	}

	/** The trigger node's parameters as n8n resolved them (defaults filled in) for the active workflow. */
	get resolvedParameters(): IDataObject | undefined {
		return this.workflow?.getNode(NODE_NAME)?.parameters as IDataObject | undefined;
	}

	/** The node description as the engine sees it (with n8n's polling parameters). */
	get description() {
		return this.nodeTypes.getByNameAndVersion(TRIGGER_TYPE).description;
	}

	/** Activates the workflow: n8n runs one poll at once, and an error there fails the activation. */
	async activate(): Promise<PollOutcome> {
		this.workflow = this.buildWorkflow(true);
		const pollFunctions = new PollContext(
			this.workflow,
			this.workflow.getNode(NODE_NAME) as INode,
			this.additionalData('trigger'),
			'trigger',
			'activate',
			(data) => {
				this.emitted = this.runWorkflow(this.workflow as Workflow, 'trigger', data);
				this.emissions.push(this.emitted);
			},
			(error) => {
				this.emittedError = error;
			},
		) as unknown as IPollFunctions;
		const executor = Container.get(PollTriggerExecutor);
		this.tick = executor.create(
			this.workflow,
			this.workflow.getNode(NODE_NAME) as INode,
			pollFunctions,
			() => true,
		);
		try {
			return await this.runTick(true);
		} catch (error) {
			// A failed activation leaves the workflow inactive: the next poll() activates again.
			this.tick = undefined;
			return { items: [], emitted: false, error: error as PollOutcome['error'] };
		}
	}

	/**
	 * One poll. 'trigger' (default): the schedule firing, activating first when the workflow is not active yet.
	 * 'manual': the editor's Fetch Test Event.
	 */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<PollOutcome> {
		if (mode === 'manual') return await this.fetchTestEvent();
		if (!this.tick) return await this.activate();
		return await this.runTick(false);
	}

	/**
	 * Two scheduled polls started together, as n8n starts the next Poll Time while a slow poll still runs: the items
	 * either of them emitted. The workflow must be active.
	 */
	async pollTwiceAtOnce(): Promise<INodeExecutionData[]> {
		const tick = this.tick as (testingTrigger?: boolean) => Promise<void>;
		const before = this.emissions.length;
		await Promise.all([tick(false), tick(false)]);
		return (await Promise.all(this.emissions.slice(before))).flat();
	}

	/** The editor's "Fetch Test Event": a manual execution of the trigger node, sharing the workflow's static data. */
	async fetchTestEvent(): Promise<PollOutcome> {
		const workflow = this.buildWorkflow(false);
		try {
			const items = await this.runWorkflow(workflow, 'manual', [[{ json: {} }]]);
			return { items, emitted: items.length > 0 };
		} catch (error) {
			return { items: [], emitted: false, error: error as PollOutcome['error'] };
		}
	}

	private async runTick(testingTrigger: boolean): Promise<PollOutcome> {
		this.emitted = undefined;
		this.emittedError = undefined;
		await (this.tick as (testingTrigger?: boolean) => Promise<void>)(testingTrigger);
		if (this.emittedError)
			return { items: [], emitted: false, error: this.emittedError as PollOutcome['error'] };
		if (!this.emitted) return { items: [], emitted: false };
		return { items: await this.emitted, emitted: true };
	}

	private buildWorkflow(active: boolean): Workflow {
		return new Workflow({
			id: 'poll-test',
			name: 'poll test',
			nodes: [{ ...this.node, parameters: { ...this.node.parameters } }],
			connections: {},
			nodeTypes: this.nodeTypes,
			staticData: this.staticData,
			active,
		});
	}

	/** An execution starting at the trigger node, as n8n's workflow runner starts one for emitted poll data. */
	private async runWorkflow(
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		data: INodeExecutionData[][],
	): Promise<INodeExecutionData[]> {
		const node = workflow.getNode(NODE_NAME) as INode;
		const additionalData = this.additionalData(mode);
		let resolveFinished: (run: IRun) => void = () => {};
		const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
		additionalData.hooks?.addHandler('workflowExecuteAfter', (fullRunData) =>
			resolveFinished(fullRunData),
		);
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main: data }, source: null }] },
		});
		await new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(
			workflow,
		);
		const run = await finished;
		const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
		const error = taskData?.error ?? run.data.resultData.error;
		if (error) throw error;
		return taskData?.data?.main?.[0] ?? [];
	}

	private additionalData(mode: WorkflowExecuteMode): IWorkflowExecuteAdditionalData {
		const hooks = new ExecutionLifecycleHooks(mode, 'poll-test-execution', {
			id: 'poll-test',
			name: 'poll test',
			nodes: [this.node],
			connections: {},
			active: mode === 'trigger',
			settings: {},
		} as never);
		return testAdditionalData(hooks, this.credentialsHelper, 'poll-test');
	}
}

/**
 * Records written straight into the emulator's store, the way its own handlers write them (same store functions,
 * same clocks), for accounts too large to build over HTTP in a fast test.
 */
export class EmulatorData {
	constructor(
		private readonly sandbox: Sandbox,
		private readonly username = 'demo@shop.test',
	) {}

	private get userId(): number {
		return this.sandbox.state.userByName(this.username).id;
	}

	addContacts(count: number, prefix = 'Bulk'): Array<{ id: number }> {
		const added = [];
		for (let i = 0; i < count; i++) {
			const phone = `+4915${String(Date.now() % 1e6).padStart(6, '0')}${String(i).padStart(4, '0')}`;
			added.push(
				this.sandbox.state.addContact(
					this.userId,
					{ firstname: `${prefix}${i}`, phone },
					new Date().toISOString(),
				),
			);
		}
		return added;
	}

	/** Order events, as POST /api/v1/order/ records them; `atMs` pins created_at (default: the service's clock). */
	pushOrders(orderIds: string[], status = 'paid', atMs?: number): void {
		for (const orderId of orderIds) {
			const at = atMs ?? this.sandbox.state.orderClock();
			this.sandbox.state.upsertOrder(this.userId, { order_id: orderId, status, total: 10 }, at);
		}
	}

	addProducts(ids: Array<string | number>, atMs = Date.now()): void {
		const products = this.sandbox.state.productsOf(this.userId);
		const at = new Date(atMs).toISOString();
		for (const id of ids)
			products.set(String(id), { id, name: `Product ${id}`, created_at: at, updated_at: at });
	}

	updateProduct(id: string | number, fields: IDataObject, atMs = Date.now()): void {
		const product = this.sandbox.state.productsOf(this.userId).get(String(id));
		Object.assign(product, fields, { updated_at: new Date(atMs).toISOString() });
	}

	/** A template in review (PENDING), as submit leaves it; finish it with sandbox.approveNow / rejectNow. */
	addPendingTemplate(name: string): { id: number } {
		const now = new Date().toISOString();
		const template = this.sandbox.state.addTemplate(
			this.userId,
			{ name, body: `Body of ${name}` },
			'PENDING',
			now,
		);
		template.submitted_at = now;
		return template;
	}
}

/**
 * Runs `poll` while the emulator answers its first GET on `path` normally (held back a moment) and every later one
 * with `kind`: a poll that fails half-way through its pages, after reading some of them.
 */
export async function failingAfterFirstPage<T>(
	sandbox: Sandbox,
	path: string,
	poll: () => Promise<T>,
	kind = '503',
): Promise<T> {
	const gate = sandbox.faults.inject({
		method: 'GET',
		path,
		kind: 'slow',
		delayMs: 150,
	}) as unknown as { hits: number };
	const running = poll();
	while (gate.hits === 0) await new Promise((resolve) => setTimeout(resolve, 5));
	sandbox.faults.inject({ method: 'GET', path, kind, times: Infinity });
	try {
		return await running;
	} finally {
		sandbox.faults.clear();
	}
}
