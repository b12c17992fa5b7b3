import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { templateLabel, templateMatches } from '../helpers/template';
import { asTemplate } from '../../../transport/envelope';
import { listRecords } from '../../../transport/pagination';

/**
 * The template picker: every template of the account (all pages, read like the product picker and Return All:
 * listRecords, rule L3), narrowed to what the user typed, sorted by name. The list has no server-side search, so
 * one answer holds all matches and no pagination token.
 */
export async function templateSearch(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	for (const record of await listRecords(this, 'templateList')) {
		const template = asTemplate(record);
		if (template.id === undefined || template.id === null || !templateMatches(template, filter)) continue;
		results.push({ name: templateLabel(template), value: String(template.id) });
	}
	results.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
	return { results };
}
