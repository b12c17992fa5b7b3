import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as del from './delete.operation';
import * as upload from './upload.operation';

export const operations: ResourceOperations<'media'> = { delete: del, upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an uploaded media file that no sent template uses',
				action: 'Delete a media file',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload an image, video or document for a template header and get its media_id',
				action: 'Upload a media file',
			},
		],
		default: 'upload',
	},
	...upload.description,
	...del.description,
];
