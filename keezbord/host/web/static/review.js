// keezbord web page, review: click a move in the list to see the position before and
// after it, the card, who played it and (for a flagged move) the rule broken; arrow keys
// step, Escape goes back to live. Filled in with the review work of issue 13.
"use strict";

function setupReview() {}
