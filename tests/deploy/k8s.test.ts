// The Kubernetes manifests parse, and the portal's pods, which trust one proxy's X-Forwarded-*, admit only that proxy.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseAllDocuments } from "yaml";
import { containerNodeOptions } from "#scripts/bench/heap.ts";

const dir = new URL("../../deploy/k8s/", import.meta.url);
type Manifest = { apiVersion?: string; kind?: string; metadata?: { name?: string }; spec?: Record<string, unknown> };

const manifests: Manifest[] = readdirSync(dir)
  .filter((name) => name.endsWith(".yaml"))
  .flatMap((name) =>
    parseAllDocuments(readFileSync(new URL(name, dir), "utf8")).map((document) => {
      assert.deepEqual(document.errors, [], `${name} parses`);
      return document.toJS() as Manifest;
    }),
  );

type Labels = Record<string, string>;
type Peer = { podSelector?: { matchLabels?: Labels }; namespaceSelector?: { matchLabels?: Labels }; ipBlock?: unknown };
type Rule = { from?: Peer[]; ports?: { port?: string | number }[] };
type PolicySpec = { podSelector?: { matchLabels?: Labels }; policyTypes?: string[]; ingress?: Rule[] };

const selects = (selector: Labels | undefined, labels: Labels) =>
  selector !== undefined && Object.entries(selector).every(([key, value]) => labels[key] === value);

describe("deploy/k8s", () => {
  it("every manifest parses and names its kind, version and name", () => {
    assert.ok(manifests.length > 0);
    for (const manifest of manifests) {
      assert.ok(manifest.apiVersion && manifest.kind && manifest.metadata?.name, JSON.stringify(manifest).slice(0, 80));
    }
  });

  it("the portal's pods, which trust the proxy's X-Forwarded-For, admit only the proxy's pods on the portal's port", () => {
    const deployment = manifests.find((m) => m.kind === "Deployment" && m.metadata?.name === "payments-portal");
    const template = deployment?.spec?.template as
      | { metadata: { labels: Labels }; spec: { containers: { env?: { name: string; value?: string }[] }[] } }
      | undefined;
    assert.ok(template, "the portal's Deployment");
    const env = template.spec.containers.flatMap((container) => container.env ?? []);
    assert.equal(env.find((variable) => variable.name === "TRUST_PROXY")?.value, "true");
    assert.match(
      env.find((variable) => variable.name === "PUBLIC_URL")?.value ?? "",
      /^https:\/\//,
      "the Host it answers for",
    );
    const labels = template.metadata.labels;
    const policies = manifests
      .filter((m) => m.kind === "NetworkPolicy")
      .map((m) => m.spec as PolicySpec)
      .filter((spec) => selects(spec.podSelector?.matchLabels, labels));
    assert.ok(policies.length > 0, "a NetworkPolicy selects the portal's pods");
    for (const policy of policies) {
      assert.ok(policy.policyTypes?.includes("Ingress"), "it restricts incoming traffic");
      for (const rule of policy.ingress ?? []) {
        assert.ok(rule.from && rule.from.length > 0, "no rule admits every source");
        for (const peer of rule.from) {
          assert.equal(peer.ipBlock, undefined, "no address range: the proxy is named by its pods");
          assert.ok(peer.namespaceSelector?.matchLabels && peer.podSelector?.matchLabels, "one namespace's proxy pods");
        }
        assert.deepEqual(
          (rule.ports ?? []).map((port) => port.port),
          ["http"],
          "only the portal's own port",
        );
      }
    }
  });

  it("the pods run with the Dockerfile's heap options, measured in docs/performance.md (rows 7c and 7e)", () => {
    const deployment = manifests.find((m) => m.kind === "Deployment" && m.metadata?.name === "payments-portal");
    const template = deployment?.spec?.template as
      | { spec: { containers: { env?: { name: string; value?: string }[] }[] } }
      | undefined;
    assert.ok(template, "the portal's Deployment");
    const containers = template.spec.containers;
    const podOptions = containers.flatMap((container) => container.env ?? []).find((v) => v.name === "NODE_OPTIONS");
    assert.ok(podOptions?.value, "the Deployment sets NODE_OPTIONS");
    assert.equal(podOptions.value, containerNodeOptions(), "the Dockerfile's and the Deployment's agree");
    assert.match(podOptions.value, /--max-semi-space-size=\d+/);
  });
});
