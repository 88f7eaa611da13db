import { z } from 'zod';

/**
 * An optional whole number from `min` to `max` in a tool's input (a result limit, context lines):
 * one place for the shape the file tools share, with the sentence the model reads when it asks for
 * more than `max`.
 */
export function optionalCount(min: number, max: number, overMessage: string, description: string) {
  return z.number().int().min(min).max(max, overMessage).optional().describe(description);
}
