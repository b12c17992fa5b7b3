/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { sleep } from 'n8n-workflow';

import { Engine, pairedInputs, type RunResult } from '../../tools/harness/engine';
import { resourceMapping } from '../../tools/harness/listSearch';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * Template > Send the way users fill it (rule T5): one mapped field per placeholder of the chosen template (header
 * text, body, URL buttons; positional and named), the values checked against the template before any send, the
 * template read once per run, and the header file uploaded with the sending account, once per distinct file. Each
 * against every shape the emulator serves a template record in (its fields are not shown by the API document).
 */

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const mapped = (value: Record<string, unknown> | null) => ({ mappingMode: 'defineBelow', value });
const hintsOf = (result: RunResult) =>
	(
		(
			result.run.data.resultData.runData['Commerce Messaging'][0] as {
				hints?: Array<{ message: string }>;
			}
		).hints ?? []
	).map((hint) => hint.message);

/** A template with a text header, named body placeholders, a quick reply and a URL button (its position: 1). */
const SHIPPING = {
	header_type: 'TEXT',
	header_text: 'Order {{1}} shipped',
	body: 'Hi {{customer_name}}, your order {{order_id}} is on its way. Thank you, {{customer_name}}!',
	footer: 'Reply STOP to unsubscribe',
	buttons: [
		{ type: 'QUICK_REPLY', text: 'Thanks' },
		{ type: 'URL', text: 'Track', url: 'https://shop.example.com/track/{{1}}' },
	],
};

describe.each(['flat', 'components', 'components-lowercase'])(
	'T5: Template > Send against template records shaped "%s"',
	(templateShape) => {
		let sandbox: Sandbox;
		let demoUserId: number;
		const addTemplate = (name: string, fields: Record<string, unknown>, state = 'APPROVED') =>
			sandbox.state.addTemplate(
				demoUserId,
				{ name, language: 'en', ...fields },
				state,
				new Date().toISOString(),
			) as { id: number };
		const calls = (from: number, method: string, pattern: RegExp) =>
			(sandbox.state.requests as Array<{ method: string; path: string }>)
				.slice(from)
				.filter((r) => r.method === method && pattern.test(r.path));
		const messagesOf = (templateId: number) =>
			sandbox.state.messages.filter(
				(message: { template_id: number }) => message.template_id === templateId,
			);

		beforeAll(async () => {
			sandbox = await startSandbox({ templateShape });
			demoUserId = sandbox.state.userByName(DEMO.username).id;
		});
		afterAll(async () => await sandbox.close());

		it('T5: the mapper shows one required field per distinct placeholder, in order, labelled with the words around it', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const shipping = addTemplate(`shipping_${templateShape.replace('-', '_')}`, SHIPPING);
			const named = await resourceMapping(engine, 'templateVariables', {
				resource: 'template',
				operation: 'send',
				templateId: byId(shipping.id),
			});
			expect(named.fields.map((field) => field.id)).toEqual([
				'header:1',
				'body:customer_name',
				'body:order_id',
				'button1:1',
			]);
			expect(named.fields.every((field) => field.required && field.display)).toBe(true);
			expect(named.fields.map((field) => field.displayName)).toEqual([
				'Header: Order {{1}}',
				'Hi {{customer_name}}, your',
				'your order {{order_id}} is on',
				'Button 2: track/{{1}}',
			]);
			const positional = await resourceMapping(engine, 'templateVariables', {
				resource: 'template',
				operation: 'send',
				templateId: byId(1),
			});
			expect(positional.fields.map((field) => [field.id, field.displayName])).toEqual([
				['body:1', 'Hello {{1}}, your'],
				['body:2', 'your order {{2}} is'],
			]);
			// An ID typed with spaces is read as a run reads it.
			const spaced = await resourceMapping(engine, 'templateVariables', {
				resource: 'template',
				operation: 'send',
				templateId: byId(' 1 '),
			});
			expect(spaced.fields).toEqual(positional.fields);
			// A template given by an expression cannot be read in the editor: no fields, the manual list and JSON remain.
			const unresolved = await resourceMapping(engine, 'templateVariables', {
				resource: 'template',
				operation: 'send',
				templateId: byId('={{ $json.template }}'),
			});
			expect(unresolved.fields).toEqual([]);
			expect(unresolved.emptyFieldsNotice).toMatch(/Variables \(List\) or Variables \(JSON\)/);
			// Before a template is picked (the field's default): no fields and no request, not an error.
			const requestsBefore = sandbox.state.requests.length;
			const unpicked = await resourceMapping(engine, 'templateVariables', {
				resource: 'template',
				operation: 'send',
				templateId: byId(''),
			});
			expect(unpicked.fields).toEqual([]);
			expect(sandbox.state.requests.length).toBe(requestsBefore);
		});

		it('T5: placeholders side by side get labels apart, each without the word that holds its neighbour', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const labels = async (body: string) => {
				const template = addTemplate(`adjacent_${templateShape.replace('-', '_')}`, { body });
				const { fields } = await resourceMapping(engine, 'templateVariables', {
					resource: 'template',
					operation: 'send',
					templateId: byId(template.id),
				});
				return fields.map((field) => field.displayName);
			};
			expect(await labels('{{1}}{{2}}{{3}}')).toEqual(['{{1}}', '{{2}}', '{{3}}']);
			expect(await labels('Dear {{1}} {{2}}, welcome')).toEqual(['Dear {{1}}', '{{2}}, welcome']);
			expect(await labels('Hi {{1}}, order {{2}}')).toEqual(['Hi {{1}},', 'order {{2}}']);
		});

		it('T5: mapped values go out per part (body, header, URL button), each template read once per run', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const shipping = addTemplate(`send_${templateShape.replace('-', '_')}`, SHIPPING);
			const before = sandbox.state.requests.length;
			const result = await engine.run({
				parameters: {
					resource: 'template',
					operation: 'send',
					templateId: byId('={{ $json.template }}'),
					phone: '={{ $json.phone }}',
					variables: mapped({
						'header:1': '={{ $json.order }}',
						'body:customer_name': '={{ $json.name }}',
						'body:order_id': '={{ $json.order }}',
						'button1:1': '={{ $json.order }}',
					}),
				},
				items: [1, 2, 3].map((n) => ({
					json: {
						template: shipping.id,
						phone: `+4915123450${n}`,
						name: `Ada ${n}`,
						order: `A-${n}`,
					},
				})),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.status)).toEqual(['queued', 'queued', 'queued']);
			const sent = messagesOf(shipping.id).map((message: Record<string, unknown>) => [
				message.variables,
				message.header_variables,
				message.button_variables,
			]);
			expect(sent).toEqual(
				[1, 2, 3].map((n) => [
					{ customer_name: `Ada ${n}`, order_id: `A-${n}` },
					[`A-${n}`],
					[{ index: 1, variables: [`A-${n}`] }],
				]),
			);
			expect(calls(before, 'GET', new RegExp(`/templates/${shipping.id}$`))).toHaveLength(1);
		});

		it('T5: a missing, an empty or an extra value fails its item before any send, naming the placeholders and the template', async () => {
			const engine = new Engine(credentialsFor(sandbox));
			const shipping = addTemplate(`refused_${templateShape.replace('-', '_')}`, SHIPPING);
			const full = {
				'header:1': 'A-1',
				'body:customer_name': 'Ada',
				'body:order_id': 'A-1',
				'button1:1': 'A-1',
			};
			const before = sandbox.state.requests.length;
			const run = async (value: Record<string, unknown>) =>
				await engine.run({
					parameters: {
						resource: 'template',
						operation: 'send',
						templateId: byId(shipping.id),
						phone: '+4915123456789',
						variables: mapped(value),
					},
					continueOnFail: true,
				});
			const title = `template "refused_${templateShape.replace('-', '_')}" (ID ${shipping.id})`;
			const missing = Object.fromEntries(
				Object.entries(full).filter(([id]) => id !== 'body:order_id'),
			);
			expect((await run(missing)).items[0].json.error).toBe(
				`Item 0: the variables do not fit ${title}: no value for {{order_id}}`,
			);
			expect((await run({ ...full, 'header:1': '={{ "  " }}' })).items[0].json.error).toBe(
				'Item 0: the variable Header {{1}} is empty',
			);
			// Saved as the editor saves the mapper (with its schema), an empty value gets the same message, not n8n's own
			// check naming the field's internal id.
			const schema = Object.keys(full).map((id) => ({
				id,
				displayName: id,
				required: true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: 'string',
				removed: false,
			}));
			const saved = await engine.run({
				parameters: {
					resource: 'template',
					operation: 'send',
					templateId: byId(shipping.id),
					phone: '+4915123456789',
					variables: {
						...mapped({ ...full, 'body:order_id': '={{ $json.missing }}' }),
						matchingColumns: [],
						schema,
					},
				},
				continueOnFail: true,
			});
			expect(saved.items[0].json.error).toBe('Item 0: the variable {{order_id}} is empty');
			expect((await run({ ...full, 'body:coupon': 'SPRING' })).items[0].json.error).toBe(
				`Item 0: the variables do not fit ${title}: a value for {{coupon}} (body), which it does not have`,
			);
			expect(calls(before, 'POST', /\/send$/)).toHaveLength(0);
			expect((await run(full)).items[0].json.status).toBe('queued');
		});

		/** Template 1 ({{1}} and {{2}} in its body) sent to one phone per item, its values as each item's JSON. */
		const sendWithJson = (variables: Array<string | string[]>) =>
			new Engine(credentialsFor(sandbox)).run({
				parameters: {
					resource: 'template',
					operation: 'send',
					templateId: byId(1),
					phone: '+4915123456789',
					options: { variablesJson: '={{ $json.variables }}' },
				},
				items: variables.map((value) => ({ json: { variables: value } })),
				continueOnFail: true,
			});

		it('T5: a value with a new line, a tab or more than four spaces in a row fails before any send, naming it', async () => {
			const before = sandbox.state.requests.length;
			const result = await sendWithJson([
				['Ada\nLovelace', 'A-1'],
				['Ada', 'A-1\t2'],
				['Ada     L', 'A-1\r\n'],
				['Ada    L', 'A-1'],
			]);
			const refused = 'a new line, a tab or more than four spaces in a row in';
			expect(result.items.map((item) => item.json.error)).toEqual([
				`Item 0: the variables do not fit template "order_confirmation" (ID 1): ${refused} {{1}}`,
				`Item 1: the variables do not fit template "order_confirmation" (ID 1): ${refused} {{2}}`,
				`Item 2: the variables do not fit template "order_confirmation" (ID 1): ${refused} {{1}}, {{2}}`,
				undefined,
			]);
			// Four spaces in a row are allowed: only the last item went out.
			expect(calls(before, 'POST', /\/send$/)).toHaveLength(1);
			expect(pairedInputs(result)).toEqual([0, 1, 2, 3]);
		});

		it('T5: the manual list and the JSON fill the body in order, checked the same way', async () => {
			const before = sandbox.state.requests.length;
			const result = await sendWithJson([
				'["Ada", "A-1001"]',
				'["Ada"]',
				'{"1": "Ada", "2": "A-1", "3": "x"}',
				// A key that names another part is read whole, not cut at its colon.
				'{"1": "Ada", "2": "A-1", "header:1": "x"}',
			]);
			expect(result.items[0].json.status).toBe('queued');
			expect(result.items[1].json.error).toMatch(
				/^Item 1: the variables do not fit template "order_confirmation" \(ID 1\): no value for \{\{2\}\}$/,
			);
			expect(result.items[2].json.error).toMatch(
				/a value for \{\{3\}\} \(body\), which it does not have$/,
			);
			expect(result.items[3].json.error).toMatch(
				/a value for \{\{header:1\}\} \(body\), which it does not have$/,
			);
			expect(calls(before, 'POST', /\/send$/)).toHaveLength(1);
		});
	},
);

describe('T5: Template > Send with a template whose record holds no text, and header media in one step', () => {
	let sandbox: Sandbox;
	let files: Server;
	let downloads = 0;
	const PNG = Buffer.from(
		'89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e9b3f5f70000000049454e44ae426082',
		'hex',
	);
	beforeAll(async () => {
		sandbox = await startSandbox({ templateShape: 'no-text' });
		files = createServer((request, response) => {
			downloads++;
			// A download that never answers: bounded by the run's Timeout.
			if (request.url === '/never') return;
			// One that drips a byte every 100 ms for 6 s: bounded by it too, to the last byte.
			if (request.url === '/drip.png') {
				response.writeHead(200, { 'content-type': 'image/png' });
				return void (async () => {
					for (let n = 0; n < 60 && !response.destroyed; n++, await sleep(100)) response.write('x');
					response.end();
				})();
			}
			if (!['/banner.png', '/banner%ZZ.png'].includes(request.url ?? ''))
				return void response.writeHead(404).end();
			response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
		});
		await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await sandbox.close();
		files.closeAllConnections();
		await new Promise((resolve) => files.close(resolve));
	});
	const uploads = () =>
		(sandbox.state.requests as Array<{ method: string; path: string }>).filter(
			(r) => r.method === 'POST' && r.path === '/api/v2/whatsapp/media',
		).length;
	const send = (extra: Record<string, unknown>) => ({
		resource: 'template',
		operation: 'send',
		templateId: byId(1),
		phone: '={{ $json.phone }}',
		options: { templateVariables: { variable: [{ value: 'Ada' }, { value: 'A-1' }] } },
		...extra,
	});

	it('T5: the variables are sent unchecked, and a hint says so', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({}),
			items: [{ json: { phone: '+4915123456789' } }],
		});
		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringMatching(
				/^The variables sent with template "order_confirmation" \(ID 1\) were not checked: the service lists no text for it/,
			),
		]);
	});

	it('T5: that hint quotes the name on one line, and is not given for a send the service refused (its error says why)', async () => {
		const demoUserId = sandbox.state.userByName(DEMO.username).id;
		const twoLines = sandbox.state.addTemplate(
			demoUserId,
			{ name: 'two\nlines', language: 'en', body: 'Hi {{1}}, order {{2}}' },
			'APPROVED',
			new Date().toISOString(),
		) as { id: number };
		const quoted = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ templateId: byId(twoLines.id) }),
			items: [{ json: { phone: '+4915123456789' } }],
		});
		expect(hintsOf(quoted)).toEqual([
			expect.stringMatching(
				/^The variables sent with template "two\\nlines" \(ID \d+\) were not checked/,
			),
		]);
		// One value for a body of two placeholders: the service refuses it.
		const refused = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ options: { templateVariables: { variable: [{ value: 'Ada' }] } } }),
			items: [{ json: { phone: '+4915123456789' } }],
			continueOnFail: true,
		});
		expect(refused.items[0].json.httpCode).toBe('400');
		expect(hintsOf(refused)).toEqual([]);
	});

	it('T5: a template that cannot be read costs one request per run, and fails every item that sends it', async () => {
		const reads = () =>
			(sandbox.state.requests as Array<{ method: string; path: string }>).filter(
				(r) => r.method === 'GET' && r.path === '/api/v2/whatsapp/templates/987654',
			).length;
		const before = reads();
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ templateId: byId(987654) }),
			items: [0, 1, 2].map((n) => ({ json: { phone: `+491512345640${n}` } })),
			continueOnFail: true,
		});
		expect(reads() - before).toBe(1);
		expect(pairedInputs(result)).toEqual([0, 1, 2]);
		for (const item of result.items) expect(item.json).toMatchObject({ httpCode: '404' });
	});

	it('M1/M3: From Binary Field: the file of each item uploaded with the sending account, each distinct one once for many recipients', async () => {
		const before = uploads();
		const file = (content: Buffer) => ({
			data: { base64: content.toString('base64'), fileName: 'banner.png', mimeType: 'image/png' },
		});
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ headerMedia: 'binary' }),
			items: [PNG, PNG, Buffer.concat([PNG, Buffer.from([0])]), PNG].map((content, n) => ({
				json: { phone: `+491512345600${n}` },
				binary: file(content),
			})),
		});
		expect(result.error).toBeUndefined();
		const ids = result.items.map((item) => item.json.header_media_id);
		expect(uploads() - before).toBe(2);
		expect(new Set(ids).size).toBe(2);
		expect(ids[0]).toBe(ids[1]);
		expect(ids[0]).toBe(ids[3]);
		const sentTo = new Map(
			sandbox.state.messages.map((message: { phone: string; header_media_id: string }) => [
				message.phone,
				message.header_media_id,
			]),
		);
		expect(result.items.map((item) => sentTo.get(String(item.json.phone)))).toEqual(ids);
	});

	it('M1: From URL: n8n downloads the file once (not the service) and uploads it once for every recipient', async () => {
		const before = uploads();
		downloads = 0;
		const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/banner.png`;
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ headerMedia: 'url', headerMediaUrl: url }),
			items: [0, 1, 2].map((n) => ({ json: { phone: `+491512345610${n}` } })),
		});
		expect(result.error).toBeUndefined();
		expect(downloads).toBe(1);
		expect(uploads() - before).toBe(1);
		expect(new Set(result.items.map((item) => item.json.header_media_id)).size).toBe(1);
	});

	it('M1: From URL: a file name that is not valid %-encoding is kept as written; a download that never answers fails its item within the Timeout', async () => {
		const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({
				headerMedia: 'url',
				headerMediaUrl: '={{ $json.url }}',
				requestOptions: { timeoutSeconds: 1 },
			}),
			items: [`${base}/banner%ZZ.png`, `${base}/never`].map((url, n) => ({
				json: { phone: `+491512345630${n}`, url },
			})),
			continueOnFail: true,
		});
		expect(pairedInputs(result)).toEqual([0, 1]);
		expect(result.items[0].json.header_media_id).toMatch(/^med_/);
		expect(
			[...sandbox.state.media.values()].some(
				(media: { filename: string }) => media.filename === 'banner%ZZ.png',
			),
		).toBe(true);
		expect(result.items[1].json.error).toMatch(
			/^Item 1: the header media could not be downloaded from http:\/\/127\.0\.0\.1:\d+\/never/,
		);
	});

	it('M1: an upload that fails once is tried once more for the items that were waiting for it, which share its media id', async () => {
		sandbox.faults.inject({ method: 'POST', path: '/api/v2/whatsapp/media', kind: '500' });
		const file = {
			data: {
				base64: Buffer.from('shared after a failure').toString('base64'),
				fileName: 'shared.png',
				mimeType: 'image/png',
			},
		};
		const before = uploads();
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ headerMedia: 'binary' }),
			items: [0, 1, 2, 3, 4].map((n) => ({ json: { phone: `+491512345630${n}` }, binary: file })),
			continueOnFail: true,
		});
		expect(uploads() - before).toBe(2);
		expect(pairedInputs(result)).toEqual([0, 1, 2, 3, 4]);
		expect(result.items[0].json).toMatchObject({ httpCode: '500' });
		const mediaIds = result.items.slice(1).map((item) => item.json.header_media_id);
		expect(new Set(mediaIds).size).toBe(1);
		expect(mediaIds[0]).toEqual(expect.any(String));
	});

	it('M1: a download that drips past the Timeout fails its item, sending nothing (the Timeout reaches the last byte)', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({
				headerMedia: 'url',
				headerMediaUrl: `http://127.0.0.1:${(files.address() as AddressInfo).port}/drip.png`,
				requestOptions: { timeoutSeconds: 1 },
			}),
			items: [{ json: { phone: '+4915123456499' } }],
			continueOnFail: true,
		});
		expect(result.items[0].json.error).toMatch(/^Item 0: the header media could not be downloaded/);
		expect(result.items[0].json.status).toBeUndefined();
	}, 15_000);

	it('M1: a download every try of which fails gives each waiting item its own error, naming its own index', async () => {
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({
				headerMedia: 'url',
				headerMediaUrl: `http://127.0.0.1:${(files.address() as AddressInfo).port}/gone.png`,
			}),
			items: [0, 1, 2, 3].map((n) => ({ json: { phone: `+491512345640${n}` } })),
			continueOnFail: true,
		});
		expect(pairedInputs(result)).toEqual([0, 1, 2, 3]);
		result.items.forEach((item, n) =>
			expect(item.json.error).toMatch(
				new RegExp(`^Item ${n}: the header media could not be downloaded`),
			),
		);
	});

	it('M1: Header Media "Media ID" with an empty value fails its item before any send, naming the field', async () => {
		const sends = () =>
			(sandbox.state.requests as Array<{ method: string; path: string }>).filter(
				(r) => r.method === 'POST' && r.path.endsWith('/send'),
			).length;
		const before = sends();
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ headerMedia: 'mediaId', headerMediaId: '={{ $json.media_id }}' }),
			items: [
				{ json: { phone: '+4915123456501' } },
				{ json: { phone: '+4915123456502', media_id: ' ' } },
			],
			continueOnFail: true,
		});
		expect(result.items.map((item) => item.json.error)).toEqual([
			'Item 0: the Header Media ID is empty',
			'Item 1: the Header Media ID is empty',
		]);
		expect(sends()).toBe(before);
	});

	it("M1: an upload the service refuses fails each item that needed it with the service's own message", async () => {
		sandbox.faults.inject({
			method: 'POST',
			path: '/api/v2/whatsapp/media',
			kind: '500',
			times: 10,
		});
		const file = {
			data: {
				base64: Buffer.from('other').toString('base64'),
				fileName: 'other.png',
				mimeType: 'image/png',
			},
		};
		const result = await new Engine(credentialsFor(sandbox)).run({
			parameters: send({ headerMedia: 'binary' }),
			items: [0, 1].map((n) => ({ json: { phone: `+491512345620${n}` }, binary: file })),
			continueOnFail: true,
		});
		sandbox.faults.clear();
		expect(pairedInputs(result)).toEqual([0, 1]);
		for (const item of result.items)
			expect(item.json).toMatchObject({
				httpCode: '500',
				error: expect.stringMatching(/HTTP 500/),
			});
	});
});
