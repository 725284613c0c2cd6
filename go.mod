module github.com/inframethod/commlab

go 1.26
