import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { CommerceMessaging } from '../../nodes/CommerceMessaging/CommerceMessaging.node';
import { CommerceMessagingTrigger } from '../../nodes/CommerceMessaging/CommerceMessagingTrigger.node';

/**
 * n8n's lint asks the fields of a collection in alphabetical order, but sees only lists written out in place: the
 * ones helpers build (descriptions.ts) are checked here, for both nodes.
 */
describe('the panel', () => {
	/** Every collection's list of fields, named by its path. */
	function collections(properties: INodeProperties[], path = ''): Array<[string, string[]]> {
		return properties.flatMap((property) => {
			const here = `${path}${property.displayName}`;
			const fields = (property.options ?? []).filter(
				(option): option is INodeProperties => 'type' in option,
			);
			const groups = (property.options ?? []).filter(
				(option): option is INodePropertyCollection => 'values' in option,
			);
			return [
				...(property.type === 'collection'
					? [[here, fields.map((f) => f.displayName)] as [string, string[]]]
					: []),
				...collections(fields, `${here} > `),
				...groups.flatMap((group) =>
					collections(group.values, `${here} > ${group.displayName} > `),
				),
			];
		});
	}

	it('lists the fields of every collection alphabetically, as n8n lint asks', () => {
		const all = [
			...new CommerceMessaging().description.properties,
			...new CommerceMessagingTrigger().description.properties,
		];
		const unsorted = collections(all).filter(
			([, names]) =>
				names.join('|') !==
				[...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })).join('|'),
		);
		expect(unsorted).toEqual([]);
		expect(collections(all).length).toBeGreaterThan(5);
	});
});
