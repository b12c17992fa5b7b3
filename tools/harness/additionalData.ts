import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import type { ExecutionLifecycleHooks } from 'n8n-core';

import type { TestCredentialsHelper } from './credentialsHelper';

/**
 * The part of n8n's per-execution context that node runs and polls read, with loopback URLs: the engine and the
 * poll harness build it the same way.
 */
export function testAdditionalData(
	hooks: ExecutionLifecycleHooks,
	credentialsHelper: TestCredentialsHelper,
	name: string,
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper,
		executionId: `${name}-execution`,
		currentNodeParameters: undefined,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		variables: {},
		userId: `${name}-user`,
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}
