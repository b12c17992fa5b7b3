import { parseRetryAfter, readEnvelope, validationFields } from '../../transport/envelope';

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
			message: undefined,
		});
	});

	it('E1: an HTTP 200 with status error or fail is a failure', () => {
		const error = readEnvelope(response(200, { status: 'error', message: 'Boom', code: 'INTERNAL_ERROR' }));
		expect(error).toMatchObject({ ok: false, failure: { message: 'Boom', code: 'INTERNAL_ERROR', httpStatus: 200 } });
		const fail = readEnvelope(response(200, { status: 'fail', data: { phone: 'required' } }));
		expect(fail.ok).toBe(false);
	});

	it('E2: a failure keeps the service message, code and HTTP status', () => {
		const result = readEnvelope(response(404, { status: 'error', message: 'Template not found', code: 'NOT_FOUND' }));
		expect(result).toMatchObject({ ok: false, failure: { kind: 'service', message: 'Template not found', code: 'NOT_FOUND', httpStatus: 404 } });
	});

	it('E2: HTML and broken JSON bodies become readable failures, not parse exceptions', () => {
		const html = readEnvelope(response(502, '<html><body><h1>502 Bad Gateway</h1></body></html>'));
		expect(html).toMatchObject({ ok: false, failure: { kind: 'unavailable', httpStatus: 502 } });
		if (!html.ok) expect(html.failure.message).toMatch(/HTTP 502 with an HTML page: "502 Bad Gateway"/);
		const broken = readEnvelope(response(200, '{"status":"success","data":{'));
		expect(broken).toMatchObject({ ok: false, failure: { message: 'The service answered with a body that is not valid JSON' } });
	});

	it('E3: validation fields are read from the likely shapes', () => {
		expect(validationFields({ violations: [{ propertyPath: 'phone', message: 'blank' }] })).toEqual(['phone']);
		expect(validationFields({ errors: { email: 'bad', phone: 'blank' } })).toEqual(['email', 'phone']);
		expect(validationFields({ errors: [{ field: 'total' }] })).toEqual(['total']);
		expect(validationFields({ firstname: 'too long' })).toEqual(['firstname']);
	});

	it('E4: a not-approved template answer carries its state', () => {
		const result = readEnvelope(
			response(400, { status: 'error', message: 'Template is PENDING', code: 'TEMPLATE_NOT_APPROVED', data: { state: 'PENDING' } }),
		);
		expect(result).toMatchObject({ ok: false, failure: { kind: 'templateNotApproved', state: 'PENDING' } });
	});

	it('E5: rate limiting is recognised by HTTP 429 or by a business code in an HTTP 200 body', () => {
		expect(readEnvelope(response(429, { status: 'error', message: 'Slow down' }, { 'retry-after': '7' }))).toMatchObject({
			ok: false,
			failure: { kind: 'rateLimit', retryAfterMs: 7000 },
		});
		expect(readEnvelope(response(200, { status: 'error', code: 'RATE_LIMIT_EXCEEDED', message: 'x' }))).toMatchObject({
			ok: false,
			failure: { kind: 'rateLimit' },
		});
	});

	it('A3: an expired token is recognised by code or by message, in a 401 or an HTTP 200 body', () => {
		expect(readEnvelope(response(401, { status: 'error', code: 'JWT_EXPIRED', message: 'Expired JWT Token' }))).toMatchObject({
			failure: { kind: 'expiredToken' },
		});
		expect(readEnvelope(response(200, { status: 'error', code: 401, message: 'Expired JWT Token' }))).toMatchObject({
			failure: { kind: 'expiredToken' },
		});
	});

	it('A4: missing API access is its own kind of failure', () => {
		expect(readEnvelope(response(403, { status: 'error', code: 'API_ACCESS_DISABLED', message: 'No API access' }))).toMatchObject({
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
});
