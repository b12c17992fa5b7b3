import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { asTemplate } from '../../../transport/answers';
import { listRecords } from '../../../transport/pagination';

/**
 * The template picker: every template of the account (all pages, rule L3), narrowed to those whose name holds what
 * the user typed (or whose id it is), sorted by name, labelled `order_confirmation (APPROVED, en)`. The list has no
 * server-side search, so one answer holds all matches.
 */
export async function templateSearch(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const text = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = [];
	for (const record of await listRecords(this, 'templateList')) {
		const { id, name, state, language } = asTemplate(record);
		if (id === undefined || id === null || (text && String(id) !== text && !String(name ?? '').toLowerCase().includes(text))) continue;
		const details = [state, language].filter((part) => typeof part === 'string' && part !== '');
		const label = name ? String(name) : `Template ${String(id)}`;
		results.push({ name: details.length ? `${label} (${details.join(', ')})` : label, value: String(id) });
	}
	results.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
	return { results };
}
