#!/usr/bin/env node
'use strict'
const path = require('node:path')
const fs = require('node:fs')

const cli = path.join(__dirname, '..', 'out', 'main', 'cli.js')
if (!fs.existsSync(cli)) {
  process.stderr.write(`virtbench: the CLI is not built yet (${cli} is missing). Run 'npm run build' first.\n`)
  process.exit(1)
}
require(cli)
