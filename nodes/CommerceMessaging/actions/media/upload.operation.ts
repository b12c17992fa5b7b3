import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collection } from '../../descriptions';
import { readBinaryFile, uploadMedia } from '../../helpers/binary';
import { readBoolean, readText } from '../../helpers/parameters';

export const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'data',
		hint: 'The name of the input binary field containing the file to be uploaded',
		description:
			'Image, video or document for a template header; its media_id works for this account only',
	},
	collection('options', [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'banner.png',
			description: 'Name to upload the file under, instead of its own',
		},
		{
			displayName: 'Keep Binary Data',
			name: 'keepBinary',
			type: 'boolean',
			default: false,
			description: 'Whether to pass the uploaded file on in the output item',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const propertyName = readText(this, 'binaryPropertyName', itemIndex, {
		label: 'Input Binary Field',
		required: true,
	});
	const keepBinary = readBoolean(this, 'options.keepBinary', itemIndex, {
		label: 'Keep Binary Data',
		fallback: false,
	});
	const file = await readBinaryFile(this, itemIndex, propertyName);
	file.fileName =
		readText(this, 'options.fileName', itemIndex, { label: 'File Name' }) ?? file.fileName;
	const { mediaId, fields } = await uploadMedia(this, itemIndex, file);
	// The file is not passed on unless asked: a media_id is what later steps use, and binaries are heavy.
	return {
		items: [
			{
				json: {
					...fields,
					media_id: mediaId,
					file_name: file.fileName,
					mime_type: file.mimeType,
					file_size: file.bytes.length,
				},
				...(keepBinary ? { binary: this.getInputData()[itemIndex].binary } : {}),
			},
		],
	};
}

export const option = {
	name: 'Upload',
	description: 'Upload an image, video or document for a template header',
	action: 'Upload a media file',
};
