/** Query encoders for the CLI: the release's static model (as transformers.js embeds, without a runtime), or an embeddings endpoint. */
import path from 'node:path';
import type { ReleaseSource } from '../../core/release/source.ts';
import { openAiEmbedder, type ModelManifest, type QueryEmbedder } from '../../core/search/index.ts';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { embedTexts } from '../model/embed-node.ts';

export const DEFAULT_EMBEDDINGS_BASE = 'https://api.openai.com/v1';

export function nodeEmbedderFor(endpoint: { base: string; key: string | undefined }) {
  return async (manifest: ModelManifest, source: ReleaseSource, root: string): Promise<QueryEmbedder> => {
    if (manifest.kind === 'openai-embeddings') {
      if (!endpoint.key) throw new Error(`the vectors are ${manifest.model}: set OPENAI_API_KEY to embed queries`);
      return openAiEmbedder({ base: endpoint.base, key: endpoint.key, model: manifest.model });
    }
    if (!(source instanceof FolderSource)) throw new Error('the CLI embeds with models in a release folder only');
    const dir = path.join(source.root, root, manifest.path!);
    return {
      label: `${manifest.model} (${manifest.dtype}, static table in Node)`,
      embed: (texts) => embedTexts(dir, texts, { dtype: manifest.dtype }),
    };
  };
}
