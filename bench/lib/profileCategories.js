'use strict';
/**
 * Which part of n8n (or of this package) a profiled function belongs to, from its script URL: the buckets
 * bench:profile adds self time into. Functions of no part of their own (native code, other libraries, Node's core)
 * are given to their nearest caller's part by bench/profile.js.
 */

const CATEGORIES = [
	{ id: 'package:transport', label: 'this package: dist/transport' },
	{ id: 'package:nodes', label: 'this package: dist/nodes' },
	{ id: 'package:credentials', label: 'this package: dist/credentials' },
	{ id: 'expressions', label: "n8n: expression engine (n8n-workflow's Expression, WorkflowDataProxy, @n8n/expression-runtime, isolated-vm, tournament)" },
	{ id: 'http', label: "n8n: HTTP stack (@n8n/backend-network, axios, follow-redirects, node's http/https/tls/net)" },
	{ id: 'engine', label: "n8n: engine bookkeeping (n8n-core's execution engine and node context, the rest of n8n-workflow)" },
	{ id: 'server', label: 'n8n: server and database (webhook handling, execution saving: n8n, @n8n/*, typeorm, sqlite3, express, flatted)' },
	{ id: 'gc', label: 'V8: garbage collector' },
	{ id: 'nodeCore', label: "Node.js core, called by no part (the event loop's own work)" },
	{ id: 'other', label: 'other npm packages, called by no part' },
	{ id: 'native', label: 'native, called by no part' },
	{ id: 'program', label: 'V8 and native code outside JavaScript ((program))' },
	{ id: 'idle', label: 'idle (not counted in the total)' },
];

/** The parts a caller can be given time of: n8n's and the package's. */
const PARTS = new Set(['package:transport', 'package:nodes', 'package:credentials', 'expressions', 'http', 'engine', 'server']);
/** What is given to the nearest caller that is a part. */
const ATTRIBUTED_TO_CALLER = new Set(['nodeCore', 'other', 'native']);

const EXPRESSION_FILES =
	/n8n-workflow\/dist\/cjs\/(expression|expression-evaluator-proxy|expression-sandboxing|workflow-data-proxy|workflow-data-proxy-env-provider|augment-object|extensions\/)|@n8n\/expression-runtime\/|\/isolated-vm\/|@n8n\/tournament\/|\/(esprima-next|recast|ast-types|jmespath)\//;
const HTTP_FILES = /@n8n\/backend-network\/|\/(axios|follow-redirects|form-data|proxy-from-env|https?-proxy-agent|agent-base|combined-stream|mime-types|asynckit)\//;
const HTTP_CORE = /^node:(_?http|https|_http_\w+|net|tls|_tls_\w+|dns|internal\/(http|tls|net|dns|stream_base_commons|js_stream_socket))/;
const ENGINE_FILES = /\/n8n-core\/|\/n8n-workflow\//;
const SERVER_FILES = /\/node_modules\/n8n\/|\/@n8n\/|\/(typeorm|@n8n\/typeorm|sqlite3|express|body-parser|raw-body|flatted|pg|ioredis|bull|winston|logform)\//;

function categorize(url, functionName) {
	if (!url) {
		if (functionName === '(idle)') return 'idle';
		if (functionName === '(garbage collector)') return 'gc';
		if (functionName === '(program)') return 'program';
		return 'native';
	}
	const packageDist = /n8n-nodes-commerce-messaging\/dist\/(transport|nodes|credentials)\//.exec(url);
	if (packageDist) return `package:${packageDist[1]}`;
	if (EXPRESSION_FILES.test(url)) return 'expressions';
	if (HTTP_FILES.test(url) || HTTP_CORE.test(url)) return 'http';
	if (ENGINE_FILES.test(url)) return 'engine';
	if (SERVER_FILES.test(url)) return 'server';
	if (url.startsWith('node:')) return 'nodeCore';
	return 'other';
}

module.exports = { CATEGORIES, PARTS, ATTRIBUTED_TO_CALLER, categorize };
