/** Fields of a tool, in the order its tokens are stored. */
export const FIELDS = 4;
export const F_NAME = 0;
export const F_SERVER = 1;
export const F_DESC = 2;
export const F_PARAMS = 3;
