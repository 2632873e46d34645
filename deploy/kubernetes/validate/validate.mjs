// Validates every document of the Kubernetes YAML files given against the OpenAPI schemas of the
// Kubernetes API (the kubernetes-models package: one class per apiVersion and kind, whose
// validate() checks types, enums and required fields). Prints one line per document; exits 1 if
// any document is invalid or of a kind the package does not know.
// Usage: node validate.mjs FILE.yaml...   (after `npm ci` in this directory)
import { readFileSync } from "node:fs";
import yaml from "js-yaml";

let failures = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(readFileSync(file, "utf8"))) {
    if (doc == null) {
      continue;
    }
    const what = `${file}: ${doc.apiVersion}/${doc.kind} ${doc.metadata?.name}`;
    let Model;
    try {
      Model = (await import(`kubernetes-models/${doc.apiVersion}/${doc.kind}`))[doc.kind];
    } catch (e) {
      console.log(`UNKNOWN ${what}: no schema for this apiVersion and kind (${e.message})`);
      failures++;
      continue;
    }
    try {
      new Model(doc).validate();
      console.log(`VALID ${what}`);
    } catch (e) {
      console.log(`INVALID ${what}: ${e.message}`);
      failures++;
    }
  }
}
process.exit(failures === 0 ? 0 : 1);
