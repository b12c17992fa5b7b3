import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface BinaryFile {
	bytes: Buffer;
	fileName: string;
	mimeType: string;
}

/**
 * The file in an input item's binary field. A missing field is reported with the field's name, the item and
 * the fields the item does have, before any API call.
 */
export async function readBinaryFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<BinaryFile> {
	const available = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	if (!propertyName || !available.includes(propertyName)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: no binary field "${propertyName}" to upload`,
			{
				itemIndex,
				description: available.length
					? `The item's binary fields are: ${available.join(', ')}. Set "Input Binary Field" to one of them.`
					: 'The item has no binary data. Read or download the file in an earlier node (e.g. Read/Write Files from Disk or HTTP Request).',
			},
		);
	}
	const metadata = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const extension = metadata.fileExtension ? `.${metadata.fileExtension}` : '';
	return {
		bytes,
		fileName: metadata.fileName || `${propertyName}${extension}`,
		mimeType: metadata.mimeType || 'application/octet-stream',
	};
}

/**
 * A multipart body with the file as the part `file` (rule M1). It is a native FormData, so the HTTP library
 * writes the Content-Type with its boundary; call it once per attempt, a sent body cannot be sent again.
 */
export function multipartFile(file: BinaryFile, partName = 'file'): FormData {
	const form = new FormData();
	form.append(partName, new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.fileName);
	return form;
}
