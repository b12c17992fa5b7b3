import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../transport/request';
import { itemError } from './parameters';

export interface BinaryFile {
	bytes: Buffer;
	fileName: string;
	mimeType: string;
}

/** The file in an input item's binary field; a missing field is reported with the fields the item has, before any call. */
export async function readBinaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
) {
	const available = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	if (!available.includes(propertyName)) {
		throw itemError(
			ctx,
			itemIndex,
			`no binary field "${propertyName}" to upload`,
			available.length
				? `The item's binary fields are: ${available.join(', ')}. Set "Input Binary Field" to one of them.`
				: 'The item has no binary data. Read or download the file in an earlier node (e.g. Read/Write Files from Disk or HTTP Request).',
		);
	}
	const metadata = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	return {
		bytes: await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName),
		fileName:
			metadata.fileName ||
			(metadata.fileExtension ? `${propertyName}.${metadata.fileExtension}` : propertyName),
		mimeType: metadata.mimeType || 'application/octet-stream',
	};
}

/**
 * Rules M1, M2: the file uploaded with the run's credential (the account that sends owns it, M3) as the multipart
 * part `file`, a native FormData built anew for each attempt, so the HTTP library writes the boundary and a retry
 * sends the whole file again. Answers the media id and the upload's answer.
 */
export async function uploadMedia(ctx: IExecuteFunctions, itemIndex: number, file: BinaryFile) {
	const { mediaId, fields } = await apiRequest(ctx, 'mediaUpload', {
		formData() {
			const form = new FormData();
			form.append(
				'file',
				new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }),
				file.fileName,
			);
			return form;
		},
		itemIndex,
	});
	if (mediaId) return { mediaId, fields };
	throw itemError(
		ctx,
		itemIndex,
		'the upload answer carries no media_id',
		`The service accepted the file but its answer has no media id where one was expected: ${JSON.stringify(fields)}`,
	);
}
