import { Engine, pairedInputs } from '../../tools/harness/engine';
import { credentialsFor, DEMO, startSandbox, type Sandbox } from '../../tools/harness/sandbox';

/**
 * Rule M2: the position of media_id in the upload answer is not shown. The node uploads against every answer the
 * emulator serves (mediaAnswer) and must output, at json.media_id, the id the service stored, usable as a template's
 * header_media_id.
 */
const MEDIA_ANSWERS = [
	'data.media_id',
	'data.id',
	'data.mediaId',
	'data.media.id',
	'top-level',
] as const;

/** A 1x1 GIF. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe("M2: Media Upload against every upload answer the emulator serves (mediaAnswer), run by n8n's engine", () => {
	let sandbox: Sandbox;
	let engine: Engine;
	beforeAll(async () => {
		sandbox = await startSandbox({ reviewDelayMs: null });
		engine = new Engine(credentialsFor(sandbox));
	});
	afterAll(async () => await sandbox.close());
	afterEach(() => sandbox.setConfig({ mediaAnswer: 'data.media_id', successStatus: 'success' }));

	const upload = async (fileName: string) =>
		await engine.run({
			parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
			items: [
				{
					json: {},
					binary: { data: { base64: GIF.toString('base64'), fileName, mimeType: 'image/gif' } },
				},
			],
		});

	it.each(MEDIA_ANSWERS)(
		'M2: answer "%s": json.media_id is the id the service stored, and a template send accepts it',
		async (mode) => {
			sandbox.setConfig({ mediaAnswer: mode });
			const fileName = `answer-${mode}.gif`;
			const result = await upload(fileName);
			expect(result.error).toBeUndefined();
			expect(pairedInputs(result)).toEqual([0]);
			const mediaId = String(result.items[0].json.media_id);
			const stored = sandbox.state.media.get(mediaId);
			expect(stored).toMatchObject({ filename: fileName, mimetype: 'image/gif', size: GIF.length });
			expect(stored.userId).toBe(sandbox.state.userByName(DEMO.username).id);
			expect(result.items[0].json).toMatchObject({
				file_name: fileName,
				mime_type: 'image/gif',
				file_size: GIF.length,
			});

			const approved = [...sandbox.state.templates.values()].find(
				(t: { name: string }) => t.name === 'order_confirmation',
			) as { id: number };
			const sent = await engine.run({
				parameters: {
					resource: 'template',
					operation: 'send',
					templateId: { __rl: true, mode: 'id', value: String(approved.id) },
					phone: '+33612345678',
					variables: { mappingMode: 'defineBelow', value: { 'body:1': 'Ada', 'body:2': 'A-1001' } },
					headerMedia: 'mediaId',
					headerMediaId: '={{ $json.media_id }}',
				},
				items: [{ json: { media_id: mediaId } }],
			});
			expect(sent.error).toBeUndefined();
			expect(sandbox.state.messages.at(-1)).toMatchObject({
				type: 'template',
				header_media_id: mediaId,
			});
		},
	);

	it('M2: the JSend answer without data and without a status still gives the id', async () => {
		sandbox.setConfig({ mediaAnswer: 'top-level', successStatus: 'missing' });
		const result = await upload('no-status.gif');
		expect(result.error).toBeUndefined();
		expect(sandbox.state.media.has(String(result.items[0].json.media_id))).toBe(true);
	});
});
