import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readText } from '../../helpers/parameters';
import { apiRequest } from '../../../../transport/request';

export const properties: INodeProperties[] = [
	{
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'med_3kT9xQ2',
		description:
			'The media_id from Media > Upload. Only media of this account that no sent template uses can be deleted.',
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const mediaId = readText(this, 'mediaId', itemIndex, {
		label: 'media ID',
		required: true,
		description: 'Enter the media_id returned by Media > Upload, or map it from the input item.',
	});
	const answer = await apiRequest(this, 'mediaDelete', { pathParams: { id: mediaId }, itemIndex });
	return [{ media_id: answer.mediaId ?? mediaId, deleted: true }];
}

export const option = {
	name: 'Delete',
	description: 'Delete an uploaded media file that no sent template uses',
	action: 'Delete a media file',
};
