/** What a document-text widget is given: DocText (release corpus) passes it on to SourceDocText (Hugging Face). */
export interface DocTextProps {
  docId: string;
  needles?: readonly string[];
  showChunks?: boolean;
  /** Scroll to the first highlighted match once the text is shown (the document page; not a task's gold documents). */
  scrollToMatch?: boolean;
  /** Called with the text once known (the page's chunk list uses it). */
  onText?: (text: string) => void;
  /** Called once the release's answer is known: the text, its absence or a failure (the page's first view is then complete). */
  onSettled?: () => void;
}
