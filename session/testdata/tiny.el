# a tiny directed graph
0 1
1 2
2 0
2 3
3 3
