import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as deleteTemplate from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as send from './send.operation';
import * as submit from './submit.operation';
import * as waitForApproval from './waitForApproval.operation';

export const operations: ResourceOperations<'template'> = {
	create,
	delete: deleteTemplate,
	get,
	getAll,
	send,
	submit,
	waitForApproval,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Create Draft',
				value: 'create',
				description: 'Create a WhatsApp template (v2) as a DRAFT, to submit for review afterwards',
				action: 'Create a template draft',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a template in any state, from the service and from WhatsApp',
				action: 'Delete a template',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a template with its state (DRAFT, PENDING, APPROVED or REJECTED)',
				action: 'Get a template',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many templates, optionally only those in one state',
				action: 'Get many templates',
			},
			{
				name: 'Send',
				value: 'send',
				description:
					'Send an APPROVED template to one phone number, its variables filling {{1}}, {{2}}... in order. A DRAFT or PENDING template is refused with its state.',
				action: 'Send a template',
			},
			{
				name: 'Submit for Review',
				value: 'submit',
				description: 'Submit a DRAFT template for WhatsApp review; it becomes PENDING',
				action: 'Submit a template for review',
			},
			{
				name: 'Wait for Approval',
				value: 'waitForApproval',
				description: 'Check a submitted template until it is APPROVED or REJECTED, or a timeout is reached',
				action: 'Wait for a template to be approved',
			},
		],
		default: 'send',
	},
	...create.description,
	...deleteTemplate.description,
	...get.description,
	...getAll.description,
	...send.description,
	...submit.description,
	...waitForApproval.description,
];
