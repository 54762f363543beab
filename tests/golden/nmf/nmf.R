# Reads one case per line on standard input, "clusters;classes" (comma-separated labels), and
# writes for each the R package NMF's purity(clusters, classes) and entropy(clusters, classes)
# as "purity;entropy", each printed with 17 significant digits (so that they read back exactly).
suppressPackageStartupMessages(library(NMF))
lines <- readLines(file("stdin"))
for (line in lines) {
  sides <- strsplit(line, ";", fixed = TRUE)[[1]]
  clusters <- factor(strsplit(sides[1], ",", fixed = TRUE)[[1]])
  classes <- factor(strsplit(sides[2], ",", fixed = TRUE)[[1]])
  cat(sprintf("%.17g;%.17g\n", purity(clusters, classes), entropy(clusters, classes)))
}
