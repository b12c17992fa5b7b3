#!/usr/bin/env node
// @ts-check
'use strict';
/** `npm run sandbox`: the emulator on 127.0.0.1:${SANDBOX_PORT:-8787} with the demo seed, until Ctrl-C. */
const { startSandbox, DEMO_USERS } = require('./index');

async function main() {
	const port = Number(process.env.SANDBOX_PORT ?? 8787);
	const host = process.env.SANDBOX_HOST ?? '127.0.0.1';
	const sandbox = await startSandbox({ port, host, seed: 'demo', log: process.env.SANDBOX_LOG === '1' });
	const u = sandbox.url;
	const lines = [
		`Sandbox (service emulator) listening on ${u}`,
		'',
		'Users (username / password / API access / plugin key):',
		...DEMO_USERS.map((d) => `  ${d.username} / ${d.password} / ${d.apiAccess ? 'yes' : 'NO'} / ${d.pluginKey ?? '-'}`),
		'',
		'Try:',
		`  TOKEN=$(curl -s -X POST ${u}/api/login_check -H 'Content-Type: application/json' \\`,
		`    -d '{"username":"demo@shop.test","password":"demo-password"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
		`  curl -s "${u}/api/contacts/?currentPage=1&page=1&limit=5" -H "Authorization: Bearer $TOKEN"`,
		`  curl -s ${u}/api/v2/whatsapp/templates -H "Authorization: Bearer $TOKEN"`,
		`  curl -s ${u}/api/v1/products/ -H "Authorization: Bearer $TOKEN" -H 'x-api-key: demo-plugin-key' \\`,
		`    -H 'x-platform-type: woocommerce' -H 'x-base-uri: https://shop.example'`,
		`  curl -s ${u}/__sandbox/state`,
		'',
		'Set SANDBOX_LOG=1 to log each request. Ctrl-C stops.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sandbox.close().then(() => process.exit(0), () => process.exit(1));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err) => {
	process.stderr.write(`sandbox failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});
