// Validates Gateway API objects (a JSON list on standard input) against the Gateway API's own schemas, as the npm
// package @kubernetes-models/gateway-api carries them (package.json; experimental fields such as an HTTPRoute's
// sessionPersistence included), offline. Its validators accept unknown fields; so each object is also walked along
// the package's type declarations, and a field they do not declare (a typo) is refused, as `kubectl --validate=strict`
// would. Prints one line per problem; exits 1 if there is any. Used by tests/test_kubernetes.py.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const MODELS = {
  "gateway.networking.k8s.io/v1/HTTPRoute": "@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute",
};
const ROOT = path.dirname(require.resolve("@kubernetes-models/gateway-api/package.json"));
const NODE_MODULES = path.dirname(path.dirname(ROOT));

// A declaration file's class: its fields, each with the file that declares its type (null: a plain value or a map).
const classes = new Map();
function fields(file) {
  if (classes.has(file)) return classes.get(file);
  const text = readFileSync(file, "utf8");
  const imports = new Map();
  for (const m of text.matchAll(/import \{ (\w+) \} from "([^"]+)";/g)) {
    const from = m[2].startsWith(".") ? path.resolve(path.dirname(file), m[2].replace(/\.js$/, ".d.ts"))
      : path.join(NODE_MODULES, `${m[2]}.d.ts`);
    imports.set(m[1], from);
  }
  const body = text.slice(text.indexOf("export declare class"));
  const out = new Map();
  for (const m of body.slice(0, body.indexOf("constructor(")).matchAll(/^\s+"(\w+)"\??: (.+?);?$/gm)) {
    const type = m[2].replace(/^Array<(.+)>$/, "$1");  // a map's type ("{") names no file: not walked
    out.set(m[1], imports.get(type) ?? null);
  }
  classes.set(file, out);
  return out;
}

function strict(value, file, where, problems) {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => strict(item, file, `${where}[${i}]`, problems));
    return;
  }
  const known = fields(file);
  for (const [key, inner] of Object.entries(value)) {
    if (!known.has(key)) problems.push(`${where}.${key}: not a field of ${path.basename(file, ".d.ts")}`);
    else if (known.get(key)) strict(inner, known.get(key), `${where}.${key}`, problems);
  }
}

const problems = [];
for (const doc of JSON.parse(readFileSync(0, "utf8"))) {
  const name = `${doc.kind}/${doc.metadata?.name}`;
  const model = MODELS[`${doc.apiVersion}/${doc.kind}`];
  if (!model) {
    problems.push(`${name}: no schema for ${doc.apiVersion} ${doc.kind}`);
    continue;
  }
  const Model = (await import(model))[doc.kind];
  try {
    new Model(doc).validate();
  } catch (err) {
    problems.push(`${name}: ${err.message}`);
  }
  strict(doc, path.join(NODE_MODULES, `${model}.d.ts`), name, problems);
}
for (const p of problems) console.log(p);
process.exit(problems.length ? 1 : 0);
