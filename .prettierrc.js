// The formatting n8n-node's starter template sets up for community nodes (n8n-node new), so this package reads
// like any other: tabs, single quotes, trailing commas, 100 columns. `npm run format` applies it; `npm test` checks it.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};
