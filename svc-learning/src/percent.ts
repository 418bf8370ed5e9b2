/** Percentages (exam scores, average course progress) are rounded to 2 decimals (e.g. 66.67). */
export const roundPercent = (n: number) => Math.round(n * 100) / 100
