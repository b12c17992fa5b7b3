'use strict';
/**
 * A self-signed certificate for 127.0.0.1 and localhost, made at run time with openssl in a temporary folder: the
 * wire's TLS terminator serves it, n8n trusts it through NODE_EXTRA_CA_CERTS and the raw client through its `ca`.
 * ECDSA P-256, as most public services use today (an RSA key would make each handshake cost more CPU).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** @returns {{ dir: string, certFile: string, cert: string, key: string, remove: () => void }} */
function makeCertificate() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-cert-'));
	const certFile = path.join(dir, 'cert.pem');
	const keyFile = path.join(dir, 'key.pem');
	execFileSync(
		'openssl',
		[
			'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
			'-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
			'-keyout', keyFile, '-out', certFile,
		],
		{ stdio: ['ignore', 'ignore', 'pipe'] },
	);
	return {
		dir,
		certFile,
		cert: fs.readFileSync(certFile, 'utf8'),
		key: fs.readFileSync(keyFile, 'utf8'),
		remove: () => fs.rmSync(dir, { recursive: true, force: true }),
	};
}

module.exports = { makeCertificate };
