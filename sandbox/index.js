// @ts-check
'use strict';
/** The service emulator ("sandbox"): `const { startSandbox } = require('./sandbox')`. See sandbox/README.md. */
const { startSandbox } = require('./server');
const { DEMO_USERS } = require('./seed');
const { KINDS: FAULT_KINDS } = require('./faults');
const { decodeJwt } = require('./jwt');
const { startTrap } = require('./trap');

module.exports = { startSandbox, startTrap, DEMO_USERS, FAULT_KINDS, decodeJwt };
