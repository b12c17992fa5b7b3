/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in jest, not inside n8n */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

import { Engine, pairedInputs } from '../../tools/harness/engine';
import {
	credentialsFor,
	DEMO,
	OTHER,
	startSandbox,
	type Sandbox,
	type SandboxRequestLog,
} from '../../tools/harness/sandbox';

const MEDIA_PATH = '/api/v2/whatsapp/media';

/** A real 1x1 PNG (signature, IHDR, IDAT, IEND with their CRCs), so the upload carries a genuine image file. */
function tinyPng(): Buffer {
	const chunk = (type: string, data: Buffer) => {
		const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
		const length = Buffer.alloc(4);
		length.writeUInt32BE(data.length);
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(typed));
		return Buffer.concat([length, typed, crc]);
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(1, 0); // width
	header.writeUInt32BE(1, 4); // height
	header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
	const pixelRow = Buffer.from([0, 0x25, 0xd3, 0x66, 0xff]); // filter byte + one green pixel
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(pixelRow)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

interface SeenRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/**
 * A loopback proxy in front of the emulator: it records what the node really sent (headers and bytes) and can
 * reshape the emulator's answers, to prove the node reads the media id wherever the service puts it.
 */
async function startRecordingProxy(target: string) {
	const seen: SeenRequest[] = [];
	let reshapeUpload: ((answer: Record<string, unknown>) => unknown) | undefined;
	const server: Server = createServer((incoming, outgoing) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => {
			const body = Buffer.concat(chunks);
			const path = (incoming.url ?? '').split('?')[0];
			seen.push({ method: incoming.method ?? '', path, headers: incoming.headers, body });
			const forward = request(
				`${target}${incoming.url}`,
				{ method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
				(answer) => {
					const answerChunks: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
					answer.on('end', () => {
						let text = Buffer.concat(answerChunks).toString('utf8');
						if (
							reshapeUpload &&
							incoming.method === 'POST' &&
							path === MEDIA_PATH &&
							answer.statusCode === 201
						) {
							text = JSON.stringify(reshapeUpload(JSON.parse(text)));
						}
						outgoing.writeHead(answer.statusCode ?? 500, { 'content-type': 'application/json' });
						outgoing.end(text);
					});
				},
			);
			forward.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		reshape(fn?: (answer: Record<string, unknown>) => unknown) {
			reshapeUpload = fn;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe("Media (v2), run by n8n's engine against the emulator", () => {
	let sandbox: Sandbox;
	let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
	const png = tinyPng();
	const pngItem = (fileName = 'pixel.png') => ({
		json: { sku: 'SKU-1001' },
		binary: { data: { base64: png.toString('base64'), fileName, mimeType: 'image/png' } },
	});

	beforeAll(async () => {
		sandbox = await startSandbox();
		proxy = await startRecordingProxy(sandbox.url);
	});
	afterAll(async () => {
		await proxy.close();
		await sandbox.close();
	});

	const userId = (username: string) => sandbox.state.userByName(username).id;
	const mediaRequests = (): SandboxRequestLog[] =>
		sandbox.state.requests.filter((r: SandboxRequestLog) => r.path.startsWith(MEDIA_PATH));

	async function upload(engine: Engine, fileName?: string) {
		const result = await engine.run({
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
			items: [pngItem(fileName)],
		});
		expect(result.error).toBeUndefined();
		return String(result.items[0].json.media_id);
	}

	/** Sends the APPROVED seed template with a header media, straight to the emulator, as the given user. */
	async function sendTemplateWithMedia(
		user: { username: string; password: string },
		mediaId: string,
	) {
		const login = await fetch(`${sandbox.url}/api/login_check`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ username: user.username, password: user.password }),
		});
		const { token } = (await login.json()) as { token: string };
		const template = [...sandbox.state.templates.values()].find(
			(t: { name: string }) => t.name === 'order_confirmation',
		) as { id: number };
		const response = await fetch(`${sandbox.url}/api/v2/whatsapp/templates/${template.id}/send`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
			body: JSON.stringify({
				phone: '+33612345678',
				variables: ['Ada', 'A-1001'],
				header_media_id: mediaId,
			}),
		});
		return { status: response.status, body: (await response.json()) as { code?: string } };
	}

	it('M1/M2: uploads a PNG from the input item as multipart (boundary set by the HTTP client); media_id in json', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO, { baseUrl: proxy.url }));
		engine.credentialsHelper.recordSignedRequests = true;
		const result = await engine.run({
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
			items: [pngItem()],
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json).toEqual({
			media_id: expect.stringMatching(/^med_/),
			file_name: 'pixel.png',
			mime_type: 'image/png',
			file_size: png.length,
		});
		// The file is not passed on by default.
		expect(result.items[0].binary).toBeUndefined();
		expect(pairedInputs(result)).toEqual([0]);

		const stored = sandbox.state.media.get(json.media_id);
		expect(stored).toMatchObject({
			filename: 'pixel.png',
			mimetype: 'image/png',
			size: png.length,
			used_by: [],
		});
		expect(stored.userId).toBe(userId(DEMO.username));

		// What the node handed n8n: a FormData body and no Content-Type of its own (rule M1). n8n's HTTP client writes
		// one from the FormData, boundary included, so a hand-set header would not show on the wire here.
		const handed = engine.credentialsHelper.signedRequests.filter(
			(r) => r.method === 'POST' && r.url.endsWith(MEDIA_PATH),
		);
		expect(handed).toHaveLength(1);
		expect(handed[0].body).toBeInstanceOf(FormData);
		expect(
			Object.keys(handed[0].headers).filter((name) => name.toLowerCase() === 'content-type'),
		).toEqual([]);

		const sent = proxy.seen.filter((r) => r.method === 'POST' && r.path === MEDIA_PATH);
		expect(sent).toHaveLength(1);
		const contentType = String(sent[0].headers['content-type']);
		const boundary = /^multipart\/form-data; ?boundary=(.+)$/.exec(contentType)?.[1];
		expect(boundary).toBeTruthy();
		const raw = sent[0].body;
		expect(raw.toString('latin1')).toContain(`--${boundary}`);
		expect(raw.toString('latin1')).toMatch(
			/Content-Disposition: form-data; name="file"; filename="pixel.png"\r\nContent-Type: image\/png/,
		);
		// The PNG's bytes travel untouched inside the part.
		expect(raw.indexOf(png)).toBeGreaterThan(0);
	});

	it('M2: the media_id is read wherever the answer puts it, and always output at json.media_id', async () => {
		const engine = new Engine(credentialsFor(sandbox, DEMO, { baseUrl: proxy.url }));
		const shapes: Array<[string, (id: string) => unknown]> = [
			['data.id', (id) => ({ status: 'success', data: { id } })],
			['data.mediaId', (id) => ({ status: 'success', data: { mediaId: id } })],
			[
				'data.media.id',
				(id) => ({ status: 'success', data: { media: { id, url: 'https://cdn.example/m' } } }),
			],
			['data as the id', (id) => ({ status: 'success', data: id })],
			['top-level media_id', (id) => ({ media_id: id })],
			['top-level id', (id) => ({ id })],
		];
		try {
			for (const [, shape] of shapes) {
				proxy.reshape((answer) => shape((answer.data as { media_id: string }).media_id));
				const result = await engine.run({
					parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
					items: [pngItem()],
				});
				expect(result.error).toBeUndefined();
				const mediaId = result.items[0].json.media_id as string;
				expect(mediaId).toMatch(/^med_/);
				// The id the node output is the one the service stored.
				expect(sandbox.state.media.has(mediaId)).toBe(true);
			}
		} finally {
			proxy.reshape(undefined);
		}
	});

	it('M1: with Keep Binary Data and a file name option, the file is passed on and uploaded under that name', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const result = await engine.run({
			parameters: {
				resource: 'media',
				operation: 'upload',
				binaryPropertyName: 'data',
				options: { keepBinary: true, fileName: 'header.png' },
			},
			items: [pngItem()],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ file_name: 'header.png', file_size: png.length });
		expect(result.items[0].binary?.data).toMatchObject({
			fileName: 'pixel.png',
			mimeType: 'image/png',
		});
		expect(sandbox.state.media.get(result.items[0].json.media_id)).toMatchObject({
			filename: 'header.png',
		});
	});

	it('M1: a missing binary field fails the item naming the field and costs no API call', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const requestsBefore = sandbox.state.requests.length;
		const mediaBefore = sandbox.state.media.size;
		const result = await engine.run({
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'attachment' },
			items: [pngItem()],
		});
		expect(result.error?.message).toBe('Item 0: no binary field "attachment" to upload');
		expect(result.error?.description).toMatch(/binary fields are: data/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(sandbox.state.requests.length).toBe(requestsBefore);
		expect(sandbox.state.media.size).toBe(mediaBefore);
	});

	it('A3/M1: a 401 expired token during the upload leads to one fresh login and a full re-sent file', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const before = mediaRequests().length;
		sandbox.faults.inject({
			method: 'POST',
			path: MEDIA_PATH,
			kind: 'expired-token-401',
			times: 1,
		});
		const result = await engine.run({
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
			items: [pngItem('retry.png')],
		});
		expect(result.error).toBeUndefined();
		expect(engine.logins).toBe(2);
		const attempts = mediaRequests().slice(before);
		expect(attempts.map((r) => [r.method, r.status])).toEqual([
			['POST', 401],
			['POST', 201],
		]);
		expect(attempts[0].tokenExpired).toBe(true);
		// The second attempt carried the whole file again: a consumed body would arrive empty or be refused.
		const stored = sandbox.state.media.get(result.items[0].json.media_id);
		expect(stored).toMatchObject({
			filename: 'retry.png',
			mimetype: 'image/png',
			size: png.length,
		});
	});

	it('M4: deletes an unused media; the service no longer has it', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const mediaId = await upload(engine);
		expect(sandbox.state.media.has(mediaId)).toBe(true);
		const result = await engine.run({
			parameters: { resource: 'media', operation: 'delete', mediaId },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([{ media_id: mediaId, deleted: true }]);
		expect(sandbox.state.media.has(mediaId)).toBe(false);
		expect(mediaRequests().at(-1)).toMatchObject({
			method: 'DELETE',
			path: `${MEDIA_PATH}/${mediaId}`,
			status: 200,
		});
	});

	it('M4: a media used by a sent template cannot be deleted: MEDIA_IN_USE is shown, the media stays', async () => {
		const engine = new Engine(credentialsFor(sandbox));
		const mediaId = await upload(engine);
		const send = await sendTemplateWithMedia(DEMO, mediaId);
		expect(send.status).toBe(201);
		expect(sandbox.state.media.get(mediaId).used_by).toHaveLength(1);

		const stopped = await engine.run({
			parameters: { resource: 'media', operation: 'delete', mediaId },
		});
		expect(stopped.error?.message).toMatch(/MEDIA_IN_USE/);
		expect(stopped.error?.httpCode).toBe('409');

		const continued = await engine.run({
			parameters: { resource: 'media', operation: 'delete', mediaId: '={{ $json.mediaId }}' },
			items: [{ json: { mediaId } }, { json: { mediaId: '' } }],
			continueOnFail: true,
		});
		expect(continued.error).toBeUndefined();
		expect(pairedInputs(continued)).toEqual([0, 1]);
		expect(continued.items[0].json).toMatchObject({ code: 'MEDIA_IN_USE', httpCode: '409' });
		expect(continued.items[1].json.error).toBe('Item 1: the media ID is empty');
		expect(sandbox.state.media.has(mediaId)).toBe(true);
	});

	it('M3: a media uploaded by another user can be neither used nor deleted by this user (MEDIA_NOT_OWNED)', async () => {
		const otherEngine = new Engine(credentialsFor(sandbox, OTHER));
		const mediaId = await upload(otherEngine, 'other.png');
		expect(sandbox.state.media.get(mediaId).userId).toBe(userId(OTHER.username));

		const use = await sendTemplateWithMedia(DEMO, mediaId);
		expect(use).toMatchObject({ status: 403, body: { code: 'MEDIA_NOT_OWNED' } });

		const demoEngine = new Engine(credentialsFor(sandbox, DEMO));
		const result = await demoEngine.run({
			parameters: { resource: 'media', operation: 'delete', mediaId },
			continueOnFail: true,
		});
		expect(result.items[0].json).toMatchObject({ code: 'MEDIA_NOT_OWNED', httpCode: '403' });
		expect(result.items[0].json.error).toMatch(/belongs to another user/);
		expect(sandbox.state.media.get(mediaId)).toMatchObject({ filename: 'other.png', used_by: [] });

		// The owner still can.
		const byOwner = await otherEngine.run({
			parameters: { resource: 'media', operation: 'delete', mediaId },
		});
		expect(byOwner.items[0].json).toEqual({ media_id: mediaId, deleted: true });
		expect(sandbox.state.media.has(mediaId)).toBe(false);
	});
});
