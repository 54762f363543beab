#!/usr/bin/env Rscript
# Regenerate tests/golden/proc/delong.json: R's pROC on seeded inputs.
#
# For each case: the scores and classes (1 positive, 0 negative), and pROC's AUC, its
# DeLong variance (var(roc, method = "delong")) and the DeLong confidence interval
# (ci.auc(roc, method = "delong", conf.level = level)). direction = "<" (higher scores
# are positive, as scikit-learn and contingency take them) and levels = c(0, 1) are
# fixed, so pROC never guesses the direction from the data. The inputs mix continuous
# scores with rounded ones (ties, which pROC counts half, as scikit-learn does) and
# cases with two results of a class (the fewest the variance needs).
#
# Numbers are written with 17 significant digits, so each double reads back exactly.
#
# Needs R and pROC (Debian: apt-get install r-cran-proc; jsonlite comes with it).
# From the repository root:
#
#     Rscript tests/golden/make_proc.R

suppressPackageStartupMessages({
  library(pROC)
  library(jsonlite)
})

# jsonlite prints at most 15 significant digits: numbers go in verbatim, with 17.
exact <- function(x) structure(paste0("[", paste(sprintf("%.17g", x), collapse = ","), "]"),
                               class = "json")

set.seed(32)
cases <- list()
for (i in seq_len(50)) {
  n_pos <- if (i <= 5) 2L else sample(2:40, 1)
  n_neg <- if (i > 5 && i <= 10) 2L else sample(2:40, 1)
  shift <- runif(1, -0.5, 2)
  scores <- c(rnorm(n_pos, shift), rnorm(n_neg, 0))
  if (i %% 3 == 0) scores <- round(scores, 1)   # ties within and across classes
  if (i %% 7 == 0) scores <- round(scores)      # many ties
  classes <- c(rep(1L, n_pos), rep(0L, n_neg))
  order <- sample(length(scores))
  scores <- scores[order]
  classes <- classes[order]
  level <- c(0.95, 0.9, 0.99)[(i %% 3) + 1]
  r <- roc(classes, scores, levels = c(0, 1), direction = "<", quiet = TRUE)
  interval <- ci.auc(r, method = "delong", conf.level = level)
  cases[[i]] <- list(
    scores = exact(scores), classes = classes, level = level,
    auc = exact(as.numeric(auc(r))),
    variance = exact(var(r, method = "delong")),
    ci = exact(as.numeric(interval)[c(1, 3)])
  )
}

out <- list(
  pROC_version = as.character(packageVersion("pROC")),
  R_version = paste(R.version$major, R.version$minor, sep = "."),
  seed = 32,
  cases = cases
)
dir.create("tests/golden/proc", showWarnings = FALSE)
writeLines(toJSON(out, auto_unbox = TRUE, json_verbatim = TRUE, pretty = FALSE),
           "tests/golden/proc/delong.json")
