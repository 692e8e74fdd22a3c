/** The embed's answers drawn on a worker thread (../3-workers/pool.ts): see ./answers.ts. */
import { type EmbedAnswers, type EmbedAnswersInput, embedAnswers } from "./answers";

export default function drawEmbedAnswers(input: EmbedAnswersInput): EmbedAnswers {
  return embedAnswers(input);
}
