import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { TemplateRecord } from '../../../transport/envelope';
import { readLocatorId } from './parameters';

/** The chosen template's id, checked before any API call. */
export function templateIdParameter(ctx: IExecuteFunctions, itemIndex: number): string {
	return readLocatorId(ctx, 'templateId', itemIndex, {
		label: 'template ID',
		description: 'Pick a template from the list, or give its ID (e.g. 42 or {{ $json.id }}).',
	});
}

/** `"order_confirmation" (ID 42)`, for messages. */
export function templateTitle(template: TemplateRecord, fallbackId: string): string {
	const id = template.id ?? fallbackId;
	return template.name ? `"${template.name}" (ID ${id})` : `ID ${id}`;
}

/** The list label: `order_confirmation (APPROVED, en)`. */
export function templateLabel(template: TemplateRecord): string {
	const details = [template.state, template.language].filter((part) => typeof part === 'string' && part !== '');
	const name = template.name ? String(template.name) : `Template ${String(template.id ?? '')}`;
	return details.length ? `${name} (${details.join(', ')})` : name;
}

/** Whether a template matches what the user typed in the picker: part of its name, or its exact id. */
export function templateMatches(template: TemplateRecord, filter: string | undefined): boolean {
	const text = (filter ?? '').trim().toLowerCase();
	if (!text) return true;
	if (String(template.id ?? '') === text) return true;
	return String(template.name ?? '').toLowerCase().includes(text);
}

/** Why a REJECTED template was rejected: the document puts it in `data`; the assumptions name it `reason`. */
export function rejectionReason(template: TemplateRecord): string | undefined {
	for (const candidate of [template.reason, template.data]) {
		if (typeof candidate === 'string' && candidate.trim()) return candidate.trim();
		if (candidate && typeof candidate === 'object') {
			const nested = (candidate as IDataObject).reason ?? (candidate as IDataObject).message;
			if (typeof nested === 'string' && nested.trim()) return nested.trim();
		}
	}
	return undefined;
}

/** "1.5 s", "12 min 3 s", "2 h 5 min": how long a wait took, for messages. */
export function formatDuration(ms: number): string {
	const seconds = Math.max(0, ms) / 1000;
	if (seconds < 60) return `${Number(seconds.toFixed(seconds < 10 ? 2 : 0))} s`;
	const minutes = Math.floor(seconds / 60);
	if (minutes < 60) return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
