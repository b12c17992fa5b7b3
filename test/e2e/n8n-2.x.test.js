// @ts-check
'use strict';
/** The example workflows and the credential in a real n8n 2.x process (see lib/suite.js). */
const { defineN8nSuite } = require('./lib/suite');

defineN8nSuite(2);
