import { Engine } from '../../tools/harness/engine';
import { listSearch } from '../../tools/harness/listSearch';
import {
	credentialsFor,
	DEMO,
	OTHER,
	startSandbox,
	type Sandbox,
} from '../../tools/harness/sandbox';

describe("Template picker (listSearch templateSearch), run through n8n-core's LoadOptionsContext", () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null });
		const at = new Date().toISOString();
		const demoId = sandbox.state.userByName(DEMO.username).id;
		const otherId = sandbox.state.userByName(OTHER.username).id;
		for (let n = 1; n <= 7; n++) {
			sandbox.state.addTemplate(
				demoId,
				{ name: `promo_week_${n}`, language: 'de', body: 'Hallo {{1}}' },
				'APPROVED',
				at,
			);
		}
		sandbox.state.addTemplate(
			otherId,
			{ name: 'promo_other_account', language: 'en', body: 'x' },
			'APPROVED',
			at,
		);
	});
	afterAll(async () => await sandbox.close());

	it('L3/T1: lists every template of the account over all pages, labelled "name (STATE, language)", sorted by name', async () => {
		sandbox.setConfig({ maxPageSize: 3 });
		const before = sandbox.state.requests.length;
		try {
			const { results, paginationToken } = await listSearch(
				new Engine(credentialsFor(sandbox)),
				'templateSearch',
			);
			const names = results.map((result) => result.name);
			expect(results).toHaveLength(10);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			expect(names).toContain('order_confirmation (APPROVED, en)');
			expect(names).toContain('welcome_offer (DRAFT, en)');
			expect(names).toContain('cart_reminder (PENDING, en)');
			expect(names).toContain('promo_week_7 (APPROVED, de)');
			expect(names.some((name) => name.startsWith('promo_other_account'))).toBe(false);
			expect(paginationToken).toBeUndefined();
			const confirmation = [...sandbox.state.templates.values()].find(
				(template: { name: string }) => template.name === 'order_confirmation',
			);
			expect(results.find((result) => result.name.startsWith('order_confirmation'))?.value).toBe(
				String(confirmation.id),
			);

			const pages = (sandbox.state.requests as Array<{ method: string; path: string; url: string }>)
				.slice(before)
				.filter(
					(request) => request.method === 'GET' && request.path === '/api/v2/whatsapp/templates',
				);
			// Paged like Return All and the product picker (listRecords): the largest page asked, the total ends it.
			const queries = pages.map((request) => new URL(request.url, sandbox.url).searchParams);
			expect(
				queries.map((query) => [query.get('currentPage'), query.get('page'), query.get('limit')]),
			).toEqual(['1', '2', '3', '4'].map((page) => [page, page, '1000']));
		} finally {
			sandbox.setConfig({ maxPageSize: 1000 });
		}
	});

	it.each([
		['nested-total', 2],
		['repeat-last', 2],
		['no-total', 3],
	])(
		'L3: with the "%s" list server and pages of 5, every template of the account is listed once in %i page requests',
		async (paging, requests) => {
			sandbox.setConfig({ maxPageSize: 5, paging });
			const before = sandbox.state.requests.length;
			try {
				const { results } = await listSearch(new Engine(credentialsFor(sandbox)), 'templateSearch');
				const values = results.map((result) => result.value);
				expect(values).toHaveLength(10);
				expect(new Set(values).size).toBe(10);
				// With a total (even nested) the list ends at it; without one, at the empty page after the last.
				const pages = (sandbox.state.requests as Array<{ method: string; path: string }>)
					.slice(before)
					.filter(
						(request) => request.method === 'GET' && request.path === '/api/v2/whatsapp/templates',
					);
				expect(pages).toHaveLength(requests);
			} finally {
				sandbox.setConfig({ maxPageSize: 1000, paging: 'standard' });
			}
		},
	);

	it('T1: narrows the list to the typed text (part of the name, any case) or an exact id', async () => {
		const byName = await listSearch(
			new Engine(credentialsFor(sandbox)),
			'templateSearch',
			'WEEK_1',
		);
		expect(byName.results.map((result) => result.name)).toEqual(['promo_week_1 (APPROVED, de)']);

		const confirmation = [...sandbox.state.templates.values()].find(
			(template: { name: string }) => template.name === 'order_confirmation',
		);
		const byId = await listSearch(
			new Engine(credentialsFor(sandbox)),
			'templateSearch',
			String(confirmation.id),
		);
		expect(byId.results.map((result) => result.value)).toContain(String(confirmation.id));

		const none = await listSearch(
			new Engine(credentialsFor(sandbox)),
			'templateSearch',
			'no_such_template',
		);
		expect(none.results).toEqual([]);
	});

	it('E1/E2: a JSend error while listing (even with HTTP 200) is reported with the service message and code', async () => {
		sandbox.faults.inject({
			method: 'GET',
			path: '/api/v2/whatsapp/templates',
			kind: 'jsend-error-200',
		});
		try {
			await expect(
				listSearch(new Engine(credentialsFor(sandbox)), 'templateSearch'),
			).rejects.toThrow(
				/An internal error occurred while processing the request\. \[INTERNAL_ERROR\]/,
			);
		} finally {
			sandbox.faults.clear();
		}
	});
});
