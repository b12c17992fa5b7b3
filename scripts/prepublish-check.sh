#!/usr/bin/env bash
# npm's prepublishOnly: the package is published only by .github/workflows/publish.yml, from the version tag that
# matches package.json, with a provenance statement. Anything else (`npm publish` on a laptop, a tag that does not
# match) stops here. docs/releasing.md says how to release.
set -euo pipefail
version="${npm_package_version:-$(node -p "require('./package.json').version")}"
fail() {
  echo "prepublish: $1" >&2
  echo "prepublish: releases are published by .github/workflows/publish.yml when a tag v$version is pushed (docs/releasing.md)" >&2
  exit 1
}
[ "${GITHUB_ACTIONS:-}" = "true" ] || fail "not running in GitHub Actions"
[ "${GITHUB_REF_TYPE:-}" = "tag" ] && [ "${GITHUB_REF_NAME:-}" = "v$version" ] ||
  fail "the workflow runs for '${GITHUB_REF_NAME:-?}' (${GITHUB_REF_TYPE:-no ref type}), not for the tag v$version"
[ "${npm_config_provenance:-}" = "true" ] || fail "npm publish was called without --provenance"
echo "prepublish: publishing $version from tag $GITHUB_REF_NAME with provenance"
