import { readEnvelope as readAnswer } from '../../transport/answers';
import { parseRetryAfter, validationFields } from '../../transport/failures';

const readEnvelope = (answer: {
	statusCode: number;
	headers: Record<string, unknown>;
	body: string;
}) => readAnswer(answer.statusCode, answer.headers, answer.body, (text) => text);

const response = (statusCode: number, body: unknown, headers: Record<string, unknown> = {}) => ({
	statusCode,
	headers,
	body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('JSend envelope', () => {
	it('E1: success needs HTTP 2xx and status success', () => {
		expect(readEnvelope(response(200, { status: 'success', data: { id: 1 } }))).toEqual({
			ok: true,
			data: { id: 1 },
			body: { status: 'success', data: { id: 1 } },
		});
	});

	it('E1: a success without `data` gives its other keys as the data, never its status or message', () => {
		expect(
			readEnvelope(
				response(201, { status: 'success', message: 'Uploaded', media_id: 'm-1', size: 3 }),
			),
		).toMatchObject({
			ok: true,
			data: { media_id: 'm-1', size: 3 },
		});
		expect(readEnvelope(response(200, { status: 'ok', message: 'Done' }))).toEqual({
			ok: true,
			data: undefined,
			body: { status: 'ok', message: 'Done' },
		});
	});

	it('E1: an HTTP 200 with status error or fail is a failure', () => {
		const error = readEnvelope(
			response(200, { status: 'error', message: 'Boom', code: 'INTERNAL_ERROR' }),
		);
		expect(error).toMatchObject({
			ok: false,
			failure: { message: 'Boom', code: 'INTERNAL_ERROR', httpStatus: 200 },
		});
		const fail = readEnvelope(response(200, { status: 'fail', data: { phone: 'required' } }));
		expect(fail.ok).toBe(false);
	});

	it('E2: a failure keeps the service message, code and HTTP status', () => {
		const result = readEnvelope(
			response(404, { status: 'error', message: 'Template not found', code: 'NOT_FOUND' }),
		);
		expect(result).toMatchObject({
			ok: false,
			failure: {
				kind: 'service',
				message: 'Template not found',
				code: 'NOT_FOUND',
				httpStatus: 404,
			},
		});
	});

	it('E2: HTML and broken JSON bodies become readable failures, not parse exceptions', () => {
		const html = readEnvelope(response(502, '<html><body><h1>502 Bad Gateway</h1></body></html>'));
		expect(html).toMatchObject({ ok: false, failure: { kind: 'unavailable', httpStatus: 502 } });
		if (!html.ok)
			expect(html.failure.message).toMatch(/HTTP 502 with an HTML page: "502 Bad Gateway"/);
		const broken = readEnvelope(response(200, '{"status":"success","data":{'));
		expect(broken).toMatchObject({
			ok: false,
			failure: { message: 'The service answered with a body that is not valid JSON' },
		});
	});

	it('E3: validation fields are read from the likely shapes', () => {
		expect(validationFields({ violations: [{ propertyPath: 'phone', message: 'blank' }] })).toEqual(
			['phone'],
		);
		expect(validationFields({ errors: { email: 'bad', phone: 'blank' } })).toEqual([
			'email',
			'phone',
		]);
		expect(validationFields({ errors: [{ field: 'total' }] })).toEqual(['total']);
		expect(validationFields({ firstname: 'too long' })).toEqual(['firstname']);
	});

	it('E4: a not-approved template answer carries its state', () => {
		const result = readEnvelope(
			response(400, {
				status: 'error',
				message: 'Template is PENDING',
				code: 'TEMPLATE_NOT_APPROVED',
				data: { state: 'PENDING' },
			}),
		);
		expect(result).toMatchObject({
			ok: false,
			failure: { kind: 'templateNotApproved', state: 'PENDING' },
		});
	});

	it('E5: rate limiting is recognised by HTTP 429 or by a business code in an HTTP 200 body', () => {
		expect(
			readEnvelope(
				response(429, { status: 'error', message: 'Slow down' }, { 'retry-after': '7' }),
			),
		).toMatchObject({
			ok: false,
			failure: { kind: 'rateLimit', retryAfterMs: 7000 },
		});
		expect(
			readEnvelope(response(200, { status: 'error', code: 'RATE_LIMIT_EXCEEDED', message: 'x' })),
		).toMatchObject({
			ok: false,
			failure: { kind: 'rateLimit' },
		});
	});

	it('A3: an expired token is recognised by code or by message, in a 401 or an HTTP 200 body', () => {
		expect(
			readEnvelope(
				response(401, { status: 'error', code: 'JWT_EXPIRED', message: 'Expired JWT Token' }),
			),
		).toMatchObject({
			failure: { kind: 'tokenRefused' },
		});
		expect(
			readEnvelope(response(200, { status: 'error', code: 401, message: 'Expired JWT Token' })),
		).toMatchObject({
			failure: { kind: 'tokenRefused' },
		});
	});

	it('A3: every 401 that is not about API access or plugin headers is a refused token', () => {
		const cases: Array<[number, unknown]> = [
			[401, { status: 'error', code: 'JWT_INVALID', message: 'Invalid JWT Token' }],
			[401, { code: 401, message: 'JWT Token not found' }],
			[401, { status: 'error', code: 'JWT_INVALID', message: 'Invalid JWT Signature' }],
			[401, ''],
		];
		for (const [status, body] of cases) {
			expect(readEnvelope(response(status, body))).toMatchObject({
				ok: false,
				failure: { kind: 'tokenRefused' },
			});
		}
		expect(
			readEnvelope(
				response(401, { status: 'error', message: 'API access is disabled for this user' }),
			),
		).toMatchObject({
			failure: { kind: 'apiAccess' },
		});
		expect(
			readEnvelope(
				response(403, {
					status: 'error',
					code: 'PLUGIN_AUTH_REQUIRED',
					message: 'Missing x-api-key header',
				}),
			),
		).toMatchObject({ failure: { kind: 'pluginAuth' } });
		expect(
			readEnvelope(
				response(403, {
					status: 'error',
					code: 'FORBIDDEN',
					message: 'Access denied: insufficient role',
				}),
			),
		).toMatchObject({ failure: { kind: 'service', httpStatus: 403 } });
	});

	it('E1: a 2xx whose status is not exactly "success" is a success unless it says error or fail', () => {
		expect(readEnvelope(response(200, { status: 'ok', data: { id: 1 } }))).toMatchObject({
			ok: true,
			data: { id: 1 },
		});
		expect(readEnvelope(response(200, { data: { id: 2 } }))).toMatchObject({
			ok: true,
			data: { id: 2 },
		});
		expect(readEnvelope(response(201, { status: 'OK', id: 3 }))).toMatchObject({
			ok: true,
			data: { id: 3 },
		});
		expect(readEnvelope(response(200, { status: 'fail', message: 'no' }))).toMatchObject({
			ok: false,
		});
		expect(readEnvelope(response(200, { status: 'error', message: 'no' }))).toMatchObject({
			ok: false,
		});
	});

	it('A4: missing API access is its own kind of failure', () => {
		expect(
			readEnvelope(
				response(403, { status: 'error', code: 'API_ACCESS_DISABLED', message: 'No API access' }),
			),
		).toMatchObject({
			failure: { kind: 'apiAccess' },
		});
	});

	it('L1: Retry-After is read in both of its forms', () => {
		const now = Date.parse('2026-11-21T10:00:00Z');
		expect(parseRetryAfter('120', now)).toBe(120_000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('soon', now)).toBeUndefined();
	});

	it('L1: a garbage Retry-After is ignored (the backoff applies), never read as "retry now"', () => {
		const now = Date.parse('2026-11-21T10:00:00Z');
		for (const garbage of ['-5', '12, 13', '1.5e3', '', ' ', '0x10', 'Tomorrow']) {
			expect(parseRetryAfter(garbage, now)).toBeUndefined();
		}
		expect(parseRetryAfter('0', now)).toBe(0);
	});
});
